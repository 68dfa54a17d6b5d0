// Scopes as the exchange documents them: read, write, and child scopes `<parent>::<child>` that may be held
// without their parent; write needs read. The client's rule and the sandbox's agree.
import { describe, expect, it } from 'vitest';
import { thrownBy } from './fixtures.js';
import { parseNewKey, parseScopes } from '../../../src/keys/rules.js';
import { parseKeyRequest } from '../../../src/sandbox/keys/input.js';

const generateBody = (scopes: unknown) => Buffer.from(JSON.stringify({ name: 'k', scopes }));

describe('--scopes', () => {
  it('takes child scopes, with or without their parent, after the parents and without repeats', () => {
    expect(parseScopes('read,write::transfer')).toEqual(['read', 'write::transfer']);
    expect(parseScopes('write::transfer')).toEqual(['write::transfer']);
    expect(parseScopes('WRITE::Transfer, write, read,write::transfer')).toEqual(['read', 'write', 'write::transfer']);
    expect(parseScopes('read::history,read')).toEqual(['read', 'read::history']);
    expect(parseNewKey({ name: 'k', scopes: 'read,write::transfer' })).toEqual({ name: 'k', scopes: ['read', 'write::transfer'] });
  });

  it('refuses other shapes before any request, naming the rule', () => {
    for (const bad of [
      'admin::transfer',
      'write::',
      '::transfer',
      'write:transfer',
      'write::transfer::x',
      'write::trans fer',
      'write::-x',
    ]) {
      const error = thrownBy(() => parseScopes(bad));
      expect(error.exitCode).toBe(2);
      expect(error.message).toContain('child scopes <parent>::<child> such as write::transfer');
    }
  });

  it('still wants read beside write, but not beside a child of write', () => {
    const error = thrownBy(() => parseScopes('write,write::transfer'));
    expect(error.exitCode).toBe(2);
    expect(error.message).toContain('write scope requires read');
    expect(error.hint).toBe('use --scopes read,write');
  });
});

describe('the sandbox grants what the exchange grants', () => {
  it('accepts child scopes with or without their parent and normalizes their order', () => {
    const grant = (scopes: unknown) => {
      const parsed = parseKeyRequest(generateBody(scopes), false);
      return parsed.ok ? parsed.value.scopes : parsed.message;
    };
    expect(grant(['write::transfer'])).toEqual(['write::transfer']);
    expect(grant(['write::transfer', 'write', 'read', 'write::transfer'])).toEqual(['read', 'write', 'write::transfer']);
    expect(grant(['write', 'write::transfer'])).toBe('scopes: write requires read');
    expect(grant(['admin::x'])).toContain('child scopes <parent>::<child>');
    expect(grant(['write:transfer'])).toContain('got "write:transfer"');
  });
});
