// bin/trident.cjs is both the launcher and the loader of dist/ (one file: Node charges a command for each file
// its own loader reads). The build's recorder requires it as a module: then it must run nothing and hand out the
// loader, whose cache names must stay inside dist/code-cache/ whatever path it is given.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const BIN = resolve(import.meta.dirname, '../../bin/trident.cjs');

interface Loader {
  cacheFileFor(dist: string, file: string): string | undefined;
  compileModule: unknown;
  createDistLoader: unknown;
  encodeCache: unknown;
  readModule(file: string): { bytes: Buffer; wrapped: string };
}

describe('bin/trident.cjs required as a module', () => {
  it('runs no command and exports the loader', () => {
    const writes: unknown[] = [];
    const write = process.stdout.write;
    process.stdout.write = ((chunk: unknown) => writes.push(chunk) > 0) as typeof process.stdout.write;
    let loader: Loader;
    try {
      loader = createRequire(import.meta.url)(BIN) as Loader;
    } finally {
      process.stdout.write = write;
    }
    expect(writes).toEqual([]);
    expect(Object.keys(loader).sort()).toEqual(['cacheFileFor', 'compileModule', 'createDistLoader', 'encodeCache', 'readModule']);
  });

  it('names the cache of a file under dist/ by its path there and by V8 version, and none for a file outside', () => {
    const { cacheFileFor } = createRequire(import.meta.url)(BIN) as Loader;
    const dist = resolve('/opt/trident/dist');
    const v8 = process.versions.v8;
    expect(cacheFileFor(dist, join(dist, 'cli.cjs'))).toBe(join(dist, 'code-cache', `cli.cjs.${v8}.bin`));
    expect(cacheFileFor(dist, join(dist, 'chunks', 'list-X.cjs'))).toBe(join(dist, 'code-cache', `chunks__list-X.cjs.${v8}.bin`));
    // A sibling whose name starts like dist, and a file above it: no cache, so nothing outside dist/code-cache is read.
    expect(cacheFileFor(dist, `${dist}-old${sep}cli.cjs`)).toBeUndefined();
    expect(cacheFileFor(dist, resolve(dist, '..', 'node_modules', 'x.cjs'))).toBeUndefined();
  });

  it('reads a file as its bytes and its source inside the CommonJS wrapper, UTF-8 or empty alike', () => {
    const { readModule } = createRequire(import.meta.url)(BIN) as Loader;
    const dir = mkdtempSync(join(tmpdir(), 'trident-loader-'));
    try {
      for (const source of ['exports.x = "ключ ┬";', '']) {
        const file = join(dir, 'm.cjs');
        writeFileSync(file, source);
        const read = readModule(file);
        expect(read.bytes.equals(readFileSync(file))).toBe(true);
        expect(read.wrapped).toBe(`(function (exports, require, module, __filename, __dirname) { ${source}\n})`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
