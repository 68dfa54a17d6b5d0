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
