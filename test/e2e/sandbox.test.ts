import { existsSync, mkdtempSync, statSync, writeFileSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SANDBOX_TIME_USER } from '../../src/sandbox/time/endpoints.js';
import { runCli, spawnCli, tempConfigDir } from '../helpers/cli.js';

async function waitFor(file: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(file)) {
    if (Date.now() > deadline) throw new Error(`${file} did not appear`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('trident sandbox', () => {
  it('serves the three services, writes a working profile, and stops cleanly on SIGINT', async () => {
    const configDir = tempConfigDir();
    const dir = join(mkdtempSync(join(tmpdir(), 'trident-sb-')), 'files');
    const sandbox = spawnCli(['sandbox', '--port', '0', '--dir', dir, '--products', '150'], { configDir });
    await waitFor(join(configDir, 'settings.json'));
    const settings = JSON.parse(readFileSync(join(configDir, 'settings.json'), 'utf8')).profiles.sandbox;
    expect(Object.keys(settings).sort()).toEqual(['caFile', 'catalog.url', 'keys.keyId', 'keys.privateKeyFile', 'keys.url', 'time.url']);
    expect(statSync(settings['keys.privateKeyFile']).mode & 0o777).toBe(0o600);
    expect(existsSync(settings.caFile)).toBe(true);

    const opts = { configDir };
    const keys = await runCli(['--profile', 'sandbox', 'keys', 'list', '-o', 'json'], opts);
    expect(keys.exitCode).toBe(0);
    expect(JSON.parse(keys.stdout)[0]).toMatchObject({ api_key: settings['keys.keyId'], name: 'sandbox-bootstrap' });
    const projects = await runCli(['--profile', 'sandbox', 'time', 'projects', '-o', 'json'], opts);
    expect(projects.exitCode).toBe(0);
    expect(JSON.parse(projects.stdout).length).toBeGreaterThan(0);
    const count = await runCli(['--profile', 'sandbox', 'catalog', 'count', '-o', 'json'], opts);
    expect(JSON.parse(count.stdout)).toMatchObject({ products_count: 150 });

    sandbox.kill('SIGINT');
    const result = await sandbox;
    expect(result.exitCode).toBe(0);
    expect(String(result.stdout)).toContain('trident keys list --profile sandbox');
    // The time login, for after a `time logout`: the user and its password, and the command.
    expect(String(result.stdout)).toContain(`time user ${SANDBOX_TIME_USER.email}, password ${SANDBOX_TIME_USER.password}`);
    expect(String(result.stdout)).toContain('trident time login --profile sandbox');
    expect(String(result.stderr)).toContain('sandbox stopped');
  });

  it('exits 2 when a port is taken, and writes no profile', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const configDir = tempConfigDir();
      const result = await runCli(['sandbox', '--port', String(port - 1), '--products', '20'], { configDir });
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toMatch(/port \d+ \(the (keys|time) service\) is in use/);
      expect(existsSync(join(configDir, 'settings.json'))).toBe(false);
    } finally {
      blocker.close();
    }
  });

  it('exits 2 on a broken --catalog-db, an unusable --dir and a non-loopback --host', async () => {
    const base = mkdtempSync(join(tmpdir(), 'trident-sb-'));
    const notDb = join(base, 'not.db');
    writeFileSync(notDb, 'hello');
    const file = join(base, 'file');
    writeFileSync(file, '');
    for (const args of [
      ['--catalog-db', notDb],
      ['--catalog-db', join(base, 'missing.db')],
      ['--dir', join(file, 'sub')],
      ['--host', '0.0.0.0'],
      ['--port', 'eighty'],
    ]) {
      const configDir = tempConfigDir();
      const result = await runCli(['sandbox', '--port', '0', ...args], { configDir });
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(result.stderr.split('\n')[0]).toMatch(/^trident: /);
      expect(existsSync(join(configDir, 'settings.json'))).toBe(false);
    }
  });
});
