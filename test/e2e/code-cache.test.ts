// bin/trident.cjs loads dist/ with the V8 code cache the build writes to dist/code-cache/ (its loader of dist/,
// scripts/code-cache.mjs). The CLI must work the same with the cache there, gone, corrupted or switched off, and
// must hand V8 no cache whose bytes or source do not match (V8 checks only its version, flags and the source's
// length). Each test runs a copy of the package. `catalog --help -q` is the live help (help alone, to a pipe,
// is printed from dist/help/ without loading the CLI).
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv } from '../helpers/cli.js';

const ROOT = resolve(import.meta.dirname, '../..');
const PROBE = resolve(import.meta.dirname, '../helpers/code-cache-probe.cjs');

interface Compiled {
  file: string;
  cached: boolean;
  rejected: boolean;
}

const COUNT = { products_count: 7, stores: null, regions: null };
const PAGE = { items: [{ canonical_product_id: 'p1', title: 'one' }], meta: { limit: 100, offset: 0, total: 1 } };
let server: Server;
let catalogUrl: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(request.url!.startsWith('/products?') ? PAGE : COUNT));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  catalogUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

/** A copy of the package as npm installs it: bin/, dist/ (with its code cache) and package.json. */
function copyPackage(): string {
  const dir = mkdtempSync(join(tmpdir(), 'trident-code-cache-'));
  for (const part of ['bin', 'dist', 'package.json']) cpSync(join(ROOT, part), join(dir, part), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

async function run(dir: string, args: string[], env: Record<string, string> = {}) {
  const probeOut = join(dir, 'probe.json');
  const result = await execa(process.execPath, ['-r', PROBE, join(dir, 'bin/trident.cjs'), ...args], {
    env: { ...childEnv({}), ...env, CODE_CACHE_PROBE_OUT: probeOut },
    extendEnv: false,
    reject: false,
    timeout: 30_000,
  });
  const all = JSON.parse(readFileSync(probeOut, 'utf8')) as Compiled[];
  /** The files compiled with cached data. */
  const compiled = all.filter((c) => c.cached).map(({ file, rejected }) => ({ file, rejected }));
  return { exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr, compiled, uncached: all.filter((c) => !c.cached).map((c) => c.file) };
}

const cacheDir = (dir: string) => join(dir, 'dist/code-cache');

const HELP = ['catalog', '--help', '-q'];

/** Help prints what it printed with the cache, a request works, and V8 was handed no cached data. */
async function expectNoCacheUsed(dir: string, helpWithCache: Awaited<ReturnType<typeof run>>, env: Record<string, string> = {}): Promise<void> {
  const help = await run(dir, HELP, env);
  expect({ ...help, uncached: [] }).toEqual({ ...helpWithCache, compiled: [], uncached: [] });
  // Through the launcher's loader without a cache, or (TRIDENT_CODE_CACHE=0) through Node's own loader.
  expect(help.uncached.length).toBe(env.TRIDENT_CODE_CACHE === '0' ? 0 : 2);
  const count = await run(dir, ['catalog', 'count', '-o', 'json', '--url', catalogUrl], env);
  expect([count.exitCode, JSON.parse(count.stdout), count.compiled]).toEqual([0, COUNT, []]);
}

describe('the V8 code cache of dist/', () => {
  it('is there for every dist file a command loads, and V8 takes it on the way to a command and to help', async () => {
    const dir = copyPackage();
    const caches = readdirSync(cacheDir(dir)).map((name) => name.slice(0, name.indexOf('.cjs.') + 4));
    expect(caches).toContain('cli.cjs');
    expect(caches.filter((name) => name.startsWith('chunks__')).length).toBeGreaterThan(20);

    const count = await run(dir, ['catalog', 'count', '-o', 'json', '--url', catalogUrl]);
    expect(count.exitCode, count.stderr).toBe(0);
    expect(JSON.parse(count.stdout)).toEqual(COUNT);
    expect(count.compiled.length).toBeGreaterThanOrEqual(3);
    expect(count.compiled.filter((c) => c.rejected)).toEqual([]);
    expect(count.uncached).toEqual([]);

    // undici (the pipelined pages of --all) is loaded before its WebAssembly parser changes V8's flags: taken too.
    const all = await run(dir, ['catalog', 'products', '--all', '-o', 'ndjson', '--url', catalogUrl]);
    expect(all.exitCode, all.stderr).toBe(0);
    expect(JSON.parse(all.stdout)).toMatchObject(PAGE.items[0]!);
    expect(all.compiled.map((c) => c.file)).toContainEqual(expect.stringMatching(/^undici-transport-\w+\.cjs$/));
    expect(all.compiled.filter((c) => c.rejected)).toEqual([]);
    expect(all.uncached).toEqual([]);
    // ... and its cache holds the functions a request runs (the build's recording sends one), not only its top level.
    const undiciCache = readdirSync(cacheDir(dir)).find((name) => name.startsWith('chunks__undici-transport-'))!;
    expect(readFileSync(join(cacheDir(dir), undiciCache)).length).toBeGreaterThan(100_000);

    const help = await run(dir, HELP);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain('Usage: trident catalog');
    expect(help.compiled.filter((c) => c.rejected)).toEqual([]);
    expect(help.uncached).toEqual([]);
  });

  it('when missing, the CLI compiles as Node does and prints the same', async () => {
    const dir = copyPackage();
    const withCache = await run(dir, HELP);
    rmSync(cacheDir(dir), { recursive: true });
    await expectNoCacheUsed(dir, withCache);
  });

  it('is not used with TRIDENT_CODE_CACHE=0', async () => {
    const dir = copyPackage();
    await expectNoCacheUsed(dir, await run(dir, HELP), { TRIDENT_CODE_CACHE: '0' });
  });

  it('corrupted, truncated or made from another source is not handed to V8', async () => {
    const dir = copyPackage();
    const reference = await run(dir, HELP);
    const files = readdirSync(cacheDir(dir));
    files.forEach((name, i) => {
      const path = join(cacheDir(dir), name);
      const bytes = readFileSync(path);
      if (i % 3 === 0) writeFileSync(path, bytes.subarray(0, 10));
      else {
        // A flipped byte in V8's data (after trident's 8-byte header): V8 itself could take it.
        bytes[8 + Math.floor((bytes.length - 8) / 2)]! ^= 0xff;
        writeFileSync(path, bytes);
      }
    });
    await expectNoCacheUsed(dir, reference);
  });

  it('made from another build of a file (same length) is not handed to V8 for that file', async () => {
    const dir = copyPackage();
    const cli = join(dir, 'dist/cli.cjs');
    const source = readFileSync(cli, 'utf8');
    // Same length, other text: V8 alone would take the old cache (it checks the length of the source only).
    writeFileSync(cli, source.replaceAll('stdin_exports', 'stdin_exportz'));
    expect(readFileSync(cli, 'utf8')).not.toBe(source);
    expect(readFileSync(cli, 'utf8').length).toBe(source.length);
    const help = await run(dir, HELP);
    expect(help.exitCode).toBe(0);
    expect(help.compiled.map((c) => c.file)).not.toContain('cli.cjs');
    expect(help.compiled.length).toBeGreaterThanOrEqual(1);
  });
});
