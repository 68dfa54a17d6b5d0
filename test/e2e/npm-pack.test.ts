// The published package: what `npm pack` puts in it runs as installed. Its `prepare` script (which builds
// dist/ in a checkout) must not fail or warn where the build script is not shipped: an installed package
// has dist/ already.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

describe('npm pack', () => {
  it('ships a package whose prepare script does nothing where scripts/build.mjs is not shipped', async () => {
    const out = mkdtempSync(join(tmpdir(), 'trident-pack-'));
    await execa('npm', ['pack', '--ignore-scripts', '--pack-destination', out], {
      cwd: ROOT,
      env: { ...process.env, npm_config_loglevel: 'error' },
    });
    const tarball = readdirSync(out).find((name) => name.endsWith('.tgz'))!;
    execFileSync('tar', ['-xzf', join(out, tarball), '-C', out]);
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
    expect(readdirSync(unpacked).sort()).toEqual(['README.md', 'bin', 'completions', 'dist', 'package.json']);
  }, 60_000);
});
