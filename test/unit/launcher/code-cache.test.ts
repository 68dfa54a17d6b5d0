import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { cacheFileName, codeCacheDir, commandKey } from '../../../src/launcher/code-cache.js';

const BUILD = 'ab'.repeat(32);

/** A bundle as the build writes one: CommonJS, ending with its build line. */
function bundle(body = 'exports.main = (n) => [1, 2, 3].map((x) => x * n).join(",");', build = BUILD): string {
  const dir = mkdtempSync(join(tmpdir(), 'trident-code-cache-'));
  const file = join(dir, 'cli.cjs');
  writeFileSync(file, `${body}\n//# build ${build}\n`);
  return file;
}

function cacheHome(): NodeJS.ProcessEnv {
  return { XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), 'trident-cache-home-')) };
}

function cacheFiles(env: NodeJS.ProcessEnv): string[] {
  const dir = codeCacheDir(env);
  return existsSync(dir) ? readdirSync(dir).map((name) => join(dir, name)) : [];
}

/** The module as the build makes it, loaded by processes of their own: V8 keeps what one process compiled. */
const MODULE = join(mkdtempSync(join(tmpdir(), 'trident-code-cache-module-')), 'code-cache.cjs');
buildSync({
  entryPoints: [join(import.meta.dirname, '../../../src/launcher/code-cache.ts')],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  outfile: MODULE,
  logLevel: 'error',
});
const RUNNER = `
const [module, file, ...args] = process.argv.slice(1);
const loaded = require(module).loadBundle(file, args, process.env);
const answer = loaded.exports.main(2);
loaded.save();
process.stdout.write(JSON.stringify({ cache: loaded.cache, answer }));
`;

/** Loads the bundle in a process of its own, runs its main and saves the cache, as the launcher does. */
function run(file: string, env: NodeJS.ProcessEnv, args = ['keys', 'list']): { cache: string; answer: string } {
  const child = spawnSync(process.execPath, ['-e', RUNNER, MODULE, file, ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    encoding: 'utf8',
    timeout: 20_000,
  });
  if (child.status !== 0) throw new Error(`the runner failed: ${child.error?.message ?? child.stderr}`);
  return JSON.parse(child.stdout) as { cache: string; answer: string };
}

const mode = (path: string) => statSync(path).mode & 0o777;
const asRoot = process.getuid?.() === 0;

describe('the launcher code cache', () => {
  it('is written after the first run, private, and used by the next run of the same command', () => {
    const file = bundle();
    const env = cacheHome();
    expect(run(file, env)).toEqual({ cache: 'none', answer: '2,4,6' });
    const [cache] = cacheFiles(env);
    expect(cache).toMatch(new RegExp(`${BUILD.slice(0, 32)}-${process.version}-${process.arch}-keys-list\\.bin$`));
    expect(mode(codeCacheDir(env))).toBe(0o700);
    expect(mode(cache!)).toBe(0o600);
    const written = readFileSync(cache!);
    expect(run(file, env)).toEqual({ cache: 'used', answer: '2,4,6' });
    expect(readFileSync(cache!).equals(written)).toBe(true);
  });

  it('keeps one cache per command, so that each holds the functions its command called', () => {
    const file = bundle();
    const env = cacheHome();
    run(file, env, ['keys', 'list']);
    run(file, env, ['catalog', 'products', '--all']);
    run(file, env, ['--profile', 'ci', 'status']);
    expect(
      cacheFiles(env)
        .map((path) => path.slice(path.lastIndexOf(process.arch) + process.arch.length + 1))
        .sort(),
    ).toEqual(['catalog-products.bin', 'keys-list.bin', 'trident.bin']);
    expect(commandKey(['keys', 'delete', 'abc'])).toBe('keys-delete');
    expect(commandKey(['-o', 'json'])).toBe('trident');
    expect(commandKey(['status', '-o', 'json'])).toBe('status');
  });

  it('is refused by V8 when corrupt or made by another V8, and the command runs the same and writes a good one', () => {
    const file = bundle();
    const env = cacheHome();
    run(file, env);
    const [cache] = cacheFiles(env);
    const good = readFileSync(cache!);
    for (const bad of [
      Buffer.from('not a code cache at all'),
      Buffer.concat([good.subarray(0, 4), Buffer.alloc(4, 0xff), good.subarray(8)]),
    ]) {
      writeFileSync(cache!, bad);
      expect(run(file, env)).toEqual({ cache: 'refused', answer: '2,4,6' });
      expect(run(file, env)).toEqual({ cache: 'used', answer: '2,4,6' });
    }
  });

  it('is never read from a file others can write, nor kept in a directory others can enter', () => {
    const file = bundle();
    const env = cacheHome();
    run(file, env);
    const [cache] = cacheFiles(env);
    chmodSync(cache!, 0o666);
    expect(run(file, env).cache).toBe('none');
    expect(mode(cache!)).toBe(0o600); // replaced by a private one

    const open = cacheHome();
    mkdirSync(codeCacheDir(open), { recursive: true, mode: 0o777 });
    chmodSync(codeCacheDir(open), 0o777);
    run(file, open);
    expect(run(file, open)).toEqual({ cache: 'none', answer: '2,4,6' });
    expect(cacheFiles(open)).toEqual([]);
  });

  it('is no cache, and no failure, where the cache directory cannot be made or written', () => {
    const file = bundle();
    // Places nobody can make a directory in, root included; as another user, a directory without write permission too.
    const places: NodeJS.ProcessEnv[] = [{ XDG_CACHE_HOME: '/proc/self/trident-cache' }, { XDG_CACHE_HOME: `${file}/under-a-file` }];
    if (!asRoot) {
      const readOnly = cacheHome();
      mkdirSync(codeCacheDir(readOnly), { recursive: true, mode: 0o700 });
      chmodSync(codeCacheDir(readOnly), 0o500);
      places.push(readOnly);
    }
    for (const env of places) {
      expect(run(file, env)).toEqual({ cache: 'none', answer: '2,4,6' });
      expect(run(file, env)).toEqual({ cache: 'none', answer: '2,4,6' });
    }
    // A cache that can be neither read nor replaced (a directory in its place): no cache, and nothing left behind.
    const blocked = cacheHome();
    run(file, blocked);
    const [cache] = cacheFiles(blocked);
    rmSync(cache!);
    mkdirSync(cache!);
    expect(run(file, blocked)).toEqual({ cache: 'none', answer: '2,4,6' });
    expect(cacheFiles(blocked)).toEqual([cache]);
  });

  it('is not shared by two builds or two Node versions', () => {
    const env = cacheHome();
    const first = bundle();
    run(first, env);
    const other = bundle('exports.main = (n) => String(n * 100);', 'cd'.repeat(32));
    expect(run(other, env)).toEqual({ cache: 'none', answer: '200' });
    expect(cacheFiles(env)).toHaveLength(2);
    expect(cacheFileName(BUILD, 'v22.23.3', 'keys-list')).not.toBe(cacheFileName(BUILD, 'v24.21.0', 'keys-list'));
  });

  it('is not made for a bundle without its build line, or with NODE_DISABLE_COMPILE_CACHE', () => {
    const env = cacheHome();
    const unbuilt = bundle();
    writeFileSync(unbuilt, 'exports.main = (n) => String(n);\n');
    expect(run(unbuilt, env)).toEqual({ cache: 'none', answer: '2' });
    expect(run(bundle(), { ...env, NODE_DISABLE_COMPILE_CACHE: '1' }).cache).toBe('none');
    expect(cacheFiles(env)).toEqual([]);
  });
});
