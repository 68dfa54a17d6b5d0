// Runs `trident sandbox` in its own process for a benchmark, so that the measured commands and the
// services do not share an event loop, and returns the profile it wrote.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const TRIDENT = join(ROOT, 'bin/trident.cjs');
/** Seeded catalogs are kept here between runs: seeding 100,000 products takes a while. */
export const BENCH_DIR = join(tmpdir(), 'trident-bench');

export async function startBenchSandbox(products) {
  const configDir = join(BENCH_DIR, `config-${products}-${process.pid}`);
  mkdirSync(BENCH_DIR, { recursive: true });
  rmSync(configDir, { recursive: true, force: true });
  const child = spawn(
    process.execPath,
    [TRIDENT, 'sandbox', '--port', '0', '--dir', join(BENCH_DIR, 'files'), '--products', String(products)],
    {
      env: { ...process.env, TRIDENT_CONFIG_DIR: configDir },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const settingsFile = join(configDir, 'settings.json');
  const deadline = Date.now() + 300_000;
  while (!existsSync(settingsFile)) {
    if (child.exitCode !== null) throw new Error(`trident sandbox exited ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error('trident sandbox did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const profile = JSON.parse(readFileSync(settingsFile, 'utf8')).profiles.sandbox;
  return {
    profile,
    configDir,
    env: { ...process.env, TRIDENT_CONFIG_DIR: configDir, TRIDENT_PROFILE: 'sandbox' },
    stop: async () => {
      await new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGINT');
      });
      rmSync(configDir, { recursive: true, force: true });
    },
  };
}
