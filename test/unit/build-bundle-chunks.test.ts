// scripts/bundle-chunks.mjs: each file loaded on its own carries its static chunks, a chunk runs once however
// many files carry it, and a chunk no file carries is still found as a file of its own.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a build script in plain JavaScript
import { bundleChunks } from '../../scripts/bundle-chunks.mjs';

type Bundle = (code: Map<string, string>, imports: Map<string, { static: string[]; dynamic: string[] }>, entries: string[]) => Map<string, string>;
const bundle = bundleChunks as Bundle;

// cli.cjs statically needs shared.cjs; it import()s group.cjs, which needs shared.cjs and own.cjs.
// Each chunk counts its runs in a global, so that the test sees what ran and how often.
const count = (name: string) => `(globalThis.runs??={})[${JSON.stringify(name)}]=(globalThis.runs[${JSON.stringify(name)}]??0)+1;`;
const code = new Map([
  ['cli.cjs', `${count('cli')}const shared=require("./chunks/shared.cjs");module.exports={shared,group:()=>require("./chunks/group.cjs")};`],
  ['chunks/shared.cjs', `${count('shared')}module.exports={value:42};`],
  ['chunks/group.cjs', `${count('group')}const shared=require("./shared.cjs");const own=require("./own.cjs");module.exports={shared,own};`],
  ['chunks/own.cjs', `${count('own')}module.exports={own:true};`],
]);
const imports = new Map([
  ['cli.cjs', { static: ['chunks/shared.cjs'], dynamic: ['chunks/group.cjs'] }],
  ['chunks/shared.cjs', { static: [], dynamic: [] }],
  ['chunks/group.cjs', { static: ['chunks/shared.cjs', 'chunks/own.cjs'], dynamic: [] }],
  ['chunks/own.cjs', { static: [], dynamic: [] }],
]);

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  delete (globalThis as { runs?: unknown }).runs;
  // Each test loads its build afresh: forget the registries earlier tests made.
  for (const key of Object.getOwnPropertySymbols(globalThis)) if (key.description?.startsWith('trident.chunks.')) delete (globalThis as Record<symbol, unknown>)[key];
});

function writeBundle(files: Map<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'trident-bundle-'));
  dirs.push(dir);
  for (const [path, text] of files) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** The dist files a require of `path` read, in load order. */
function load(root: string, path: string): { exports: unknown; read: string[] } {
  const require = createRequire(join(root, 'x.cjs'));
  const before = new Set(Object.keys(require.cache));
  const exports = require(join(root, path));
  return { exports, read: Object.keys(require.cache).filter((file) => !before.has(file) && file.startsWith(root)).map((file) => file.slice(root.length + 1)) };
}

describe('bundleChunks', () => {
  const files = bundle(code, imports, ['cli.cjs']);
  const chunksIn = (file: string) => [...files.get(file)!.matchAll(/__chunks\.defined\["([^"]+)"\]\|\|/g)].map((match) => match[1]);

  it('puts in an entry its static chunks, and in an import() target only what its importer has not loaded', () => {
    expect(chunksIn('cli.cjs').sort()).toEqual(['chunks/shared.cjs', 'cli.cjs']);
    expect(chunksIn('chunks/group.cjs').sort()).toEqual(['chunks/group.cjs', 'chunks/own.cjs']);
    expect(chunksIn('chunks/shared.cjs')).toEqual(['chunks/shared.cjs']);
  });

  it('loads one file per entry or import(), running each chunk once', () => {
    const root = writeBundle(files);
    const cli = load(root, 'cli.cjs');
    expect(cli.read).toEqual(['cli.cjs']);
    const group = (cli.exports as { group: () => { shared: unknown; own: unknown } }).group();
    expect(group.shared).toBe((cli.exports as { shared: unknown }).shared);
    expect(group.own).toEqual({ own: true });
    expect(Object.keys(createRequire(join(root, 'x.cjs')).cache).filter((file) => file.startsWith(root)).map((file) => file.slice(root.length + 1)).sort()).toEqual(['chunks/group.cjs', 'cli.cjs']);
    expect((globalThis as { runs?: unknown }).runs).toEqual({ cli: 1, shared: 1, group: 1, own: 1 });
  });

  it('finds a chunk no loaded file carries in its own file', () => {
    // group.cjs loaded first, without cli.cjs: shared.cjs is not in it, and comes from its own file.
    const root = writeBundle(files);
    const group = load(root, 'chunks/group.cjs');
    expect(group.read.sort()).toEqual(['chunks/group.cjs', 'chunks/shared.cjs']);
    expect(group.exports).toEqual({ shared: { value: 42 }, own: { own: true } });
  });

  it('refuses a require of a file the build did not make', () => {
    const broken = new Map(code).set('chunks/own.cjs', 'require("./missing.cjs");');
    expect(() => bundle(broken, imports, ['cli.cjs'])).toThrow(/chunks\/own\.cjs requires \.\/missing\.cjs/);
  });

  it('keeps the registries of two builds apart', () => {
    const other = bundle(new Map(code).set('chunks/shared.cjs', `${count('shared')}module.exports={value:7};`), imports, ['cli.cjs']);
    const shared = (root: string) => (load(root, 'cli.cjs').exports as { shared: unknown }).shared;
    expect([shared(writeBundle(files)), shared(writeBundle(other))]).toEqual([{ value: 42 }, { value: 7 }]);
  });
});
