import { constants } from 'node:http2';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);

describe('the http2 stand-in given to undici in the bundle', () => {
  const stub = require('../../scripts/undici-http2-stub.cjs') as { constants: Record<string, unknown>; connect: unknown };

  it('has the very constants node:http2 has', () => {
    for (const [name, value] of Object.entries(stub.constants)) expect([name, value]).toEqual([name, constants[name as keyof typeof constants]]);
  });

  it('covers every constant undici destructures from node:http2', () => {
    const source = require('node:fs').readFileSync(require.resolve('undici/lib/dispatcher/client-h2.js'), 'utf8') as string;
    const block = /const \{\s*constants: \{([^}]*)\}\s*\} = http2/.exec(source)?.[1];
    expect(block).toBeDefined();
    const used = block!.split(',').map((name) => name.trim()).filter(Boolean);
    expect(Object.keys(stub.constants).sort()).toEqual(used.sort());
  });

  it('hands anything else to the real module', () => {
    expect(stub.connect).toBe(require('node:http2').connect);
  });
});

describe('the http stand-in given to undici in the bundle', () => {
  const stub = require('../../scripts/undici-http-stub.cjs') as { maxHeaderSize: number; IncomingMessage: unknown; STATUS_CODES: unknown };
  const http = require('node:http') as typeof import('node:http');

  it("gives node's own header limit", () => {
    expect(stub.maxHeaderSize).toBe(http.maxHeaderSize);
  });

  it('covers everything undici reads of node:http', () => {
    const read = new Set<string>();
    for (const file of ['undici/lib/core/util.js', 'undici/lib/dispatcher/client.js']) {
      const source = require('node:fs').readFileSync(require.resolve(file), 'utf8') as string;
      for (const [, names] of source.matchAll(/const \{([^}]*)\} = require\('node:http'\)/g)) for (const name of names!.split(',')) read.add(name.trim());
      for (const [, name] of source.matchAll(/\bhttp\.(\w+)/g)) read.add(name!);
    }
    expect([...read].sort()).toEqual(['IncomingMessage', 'maxHeaderSize']);
  });

  it('matches no real IncomingMessage, and hands anything else to the real module', () => {
    expect(stub.IncomingMessage).not.toBe(http.IncomingMessage);
    expect(stub.STATUS_CODES).toBe(http.STATUS_CODES);
  });
});

describe('the assert stand-in given to undici in the bundle', () => {
  const stub = require('../../scripts/undici-assert-stub.cjs') as ((value: unknown, message?: string) => void) & { strictEqual: unknown };
  const assert = require('node:assert') as typeof import('node:assert');

  it("passes truthy values and fails falsy ones with node's AssertionError", () => {
    expect(() => stub(1)).not.toThrow();
    expect(() => stub(0, 'broken invariant')).toThrow(assert.AssertionError);
    expect(() => stub(null, 'broken invariant')).toThrow('broken invariant');
  });

  it('hands anything else to the real module', () => {
    expect(stub.strictEqual).toBe(assert.strictEqual);
  });

  it('is enough for undici, which only calls assert(value)', () => {
    const { readdirSync, readFileSync } = require('node:fs') as typeof import('node:fs');
    const lib = require.resolve('undici/lib/dispatcher/client-h1.js').replace(/dispatcher\/client-h1\.js$/, '');
    const files = readdirSync(lib, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.js'));
    const users = files.filter((file) => readFileSync(lib + file, 'utf8').includes("require('node:assert')"));
    expect(users.length).toBeGreaterThan(10);
    for (const file of users) expect([file, readFileSync(lib + file, 'utf8').match(/\bassert\.\w+\(/g)]).toEqual([file, null]);
  });
});

describe('the lazy stand-ins of node:child_process and node:crypto (scripts/lazy-builtins.mjs)', async () => {
  // @ts-expect-error: a build script in plain JavaScript
  const { LAZY_BUILTINS, lazyBuiltinStandIn } = (await import('../../scripts/lazy-builtins.mjs')) as { LAZY_BUILTINS: string[]; lazyBuiltinStandIn: (name: string) => string };

  for (const name of ['child_process', 'crypto']) {
    it(`${name}: loads nothing until an export is read, then gives the real module's every export`, () => {
      expect(LAZY_BUILTINS).toContain(name);
      const loads: string[] = [];
      const standIn: Record<string, unknown> = {};
      new Function('exports', 'require', lazyBuiltinStandIn(name))(standIn, (request: string) => (loads.push(request), require(request)));
      expect(loads).toEqual([]);
      const real = require(`node:${name}`) as Record<string, unknown>;
      expect(Object.keys(standIn)).toEqual(Object.keys(real));
      for (const key of Object.keys(real)) expect([key, standIn[key]]).toEqual([key, real[key]]);
      expect(loads).toEqual([`node:${name}`]);
    });
  }
});

describe('importers of a lazy stand-in (scripts/lazy-builtins.mjs)', async () => {
  // @ts-expect-error: a build script in plain JavaScript
  const { importStandInsDirectly } = (await import('../../scripts/lazy-builtins.mjs')) as { importStandInsDirectly: (code: string) => string };
  const copied = (name: string, builtin: string) => `${name}=(0,import_chunk_T54A.__toESM)((0,import_chunk_ABOJ.require_${builtin})(),1)`;

  it('take it as it is, instead of the copy esbuild makes for an ES module importing a CommonJS one', () => {
    const code = `var ${copied('import_node_crypto', 'crypto')},KEY="x";var ${copied('import_node_os2', 'os')};(0,import_node_crypto.sign)(a,b,c);`;
    expect(importStandInsDirectly(code)).toBe('var import_node_crypto=(0,import_chunk_ABOJ.require_crypto)(),KEY="x";var import_node_os2=(0,import_chunk_ABOJ.require_os)();(0,import_node_crypto.sign)(a,b,c);');
  });

  it('keep the copy where the importer reads .default, and leave every other CommonJS import alone', () => {
    const code = `var ${copied('import_node_os', 'os')},home=import_node_os.default.homedir;var ${copied('import_commander', 'commander')};`;
    expect(importStandInsDirectly(code)).toBe(code);
  });
});
