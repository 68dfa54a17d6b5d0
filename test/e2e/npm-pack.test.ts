// The published package: what `npm pack` puts in it runs as installed. Its `prepare` script (which builds
// dist/ in a checkout) must not fail or warn where the build script is not shipped: an installed package
// has dist/ already. The tarball installs with `npm install -g` (into a prefix of its own here), puts `trident`
// on the PATH, and carries every docs/ page that the help names.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeysSandbox } from '../../src/sandbox/keys/server.js';
import { childEnv, tempConfigDir } from '../helpers/cli.js';
import { sandboxEnv, startSandbox } from '../helpers/keys-sandbox.js';

const ROOT = resolve(import.meta.dirname, '../..');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

let out: string;
let tarball: string;

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), 'trident-pack-'));
  await execa('npm', ['pack', '--ignore-scripts', '--pack-destination', out], {
    cwd: ROOT,
    env: { ...process.env, npm_config_loglevel: 'error' },
  });
  tarball = join(
    out,
    readdirSync(out).find((name) => name.endsWith('.tgz'))!,
  );
}, 60_000);

describe('npm pack', () => {
  it('ships a package whose prepare script does nothing where scripts/build.mjs is not shipped', async () => {
    execFileSync('tar', ['-xzf', tarball, '-C', out]);
    const unpacked = join(out, 'package');
    expect(existsSync(join(unpacked, 'scripts', 'build.mjs'))).toBe(false);
    expect(existsSync(join(unpacked, 'bin', 'trident.cjs'))).toBe(true);
    const prepare = await execa('npm', ['run', 'prepare'], {
      cwd: unpacked,
      reject: false,
      env: { ...process.env, npm_config_loglevel: 'warn' },
    });
    expect(prepare.exitCode, prepare.stderr).toBe(0);
    expect(prepare.stderr.replace(/^npm warn Unknown (user|env) config.*\n?/gim, '')).toBe('');
    expect(readdirSync(unpacked).sort()).toEqual(['README.md', 'bin', 'completions', 'dist', 'docs', 'package.json']);
  }, 60_000);
});

describe('npm install -g of the tarball', () => {
  let prefix: string;
  let keys: KeysSandbox;

  beforeAll(async () => {
    prefix = join(out, 'prefix');
    // From the cache `npm ci` filled, as a second install of the same packages is.
    await execa('npm', ['install', '-g', '--prefix', prefix, tarball, '--prefer-offline', '--no-audit', '--no-fund'], {
      env: { ...process.env, npm_config_loglevel: 'error' },
    });
    keys = await startSandbox();
  }, 300_000);
  afterAll(() => keys?.close());

  /** `trident` found on the PATH the install prefix gives, with node beside it and nothing of this checkout. */
  const installed = (args: string[], env: Record<string, string> = {}) =>
    execa('trident', args, {
      env: {
        ...childEnv({ configDir: tempConfigDir() }),
        ...env,
        PATH: `${join(prefix, 'bin')}:${dirname(process.execPath)}:/usr/bin:/bin`,
      },
      extendEnv: false,
      cwd: out,
      reject: false,
      stdin: 'ignore',
      timeout: 30_000,
    });

  it('puts trident on the PATH: --version, and a keys command against the sandbox', async () => {
    expect(await installed(['--version'])).toMatchObject({ exitCode: 0, stdout: VERSION, stderr: '' });
    const list = await installed(['keys', 'list', '-o', 'json'], sandboxEnv(keys));
    expect(list.exitCode, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout).map((key: { api_key: string }) => key.api_key)).toContain(keys.bootstrap.keyId);
  });

  it('carries every docs/ page that the help names', () => {
    const root = join(prefix, 'lib', 'node_modules', 'trident-cli');
    const dist = readdirSync(join(root, 'dist'), { recursive: true, encoding: 'utf8' }).filter((file) => /\.(cjs|txt)$/.test(file));
    const named = new Set(dist.flatMap((file) => readFileSync(join(root, 'dist', file), 'utf8').match(/docs\/[\w-]+\.md/g) ?? []));
    expect(named.size).toBeGreaterThan(1);
    for (const page of named) expect(existsSync(join(root, page)), page).toBe(true);
  });
});
