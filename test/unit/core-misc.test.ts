import { mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync, chmodSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExitCode, TridentError, exitCodeForStatus } from '../../src/core/errors.js';
import { redactHeaders, redactText } from '../../src/core/redact.js';
import { backoffMs, mayRetry, parseRetryAfter } from '../../src/core/retry.js';
import { preflightSecretPath, writeSecretFile } from '../../src/core/secret-file.js';
import { serviceMessage } from '../../src/core/service-message.js';
import { assertSecureUrl, joinUrl, parseBaseUrl } from '../../src/core/url.js';
import { reportError } from '../../src/core/report-error.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'trident-core-'));

describe('secret files', () => {
  it('writes 0600 atomically and leaves no temp file', async () => {
    const dir = tmp();
    const old = process.umask(0);
    try {
      await writeSecretFile(join(dir, 'k.pem'), 'secret');
    } finally {
      process.umask(old);
    }
    expect(readFileSync(join(dir, 'k.pem'), 'utf8')).toBe('secret');
    expect(statSync(join(dir, 'k.pem')).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['k.pem']);
  });

  it('never replaces an existing file unless forced', async () => {
    const dir = tmp();
    const path = join(dir, 'k.pem');
    writeFileSync(path, 'old');
    await expect(writeSecretFile(path, 'new')).rejects.toMatchObject({ exitCode: 2 });
    expect(readFileSync(path, 'utf8')).toBe('old');
    expect(readdirSync(dir)).toEqual(['k.pem']);
    await writeSecretFile(path, 'new', { force: true });
    expect(readFileSync(path, 'utf8')).toBe('new');
  });

  it('creates missing directories 0700', async () => {
    const path = join(tmp(), 'a', 'b', 'k.pem');
    await writeSecretFile(path, 'x');
    expect(statSync(join(path, '..')).mode & 0o777).toBe(0o700);
  });

  it('preflight refuses an existing file, a file as directory and an unwritable directory', () => {
    const dir = tmp();
    writeFileSync(join(dir, 'exists.pem'), 'x');
    expect(() => preflightSecretPath(join(dir, 'exists.pem'))).toThrow(/already exists/);
    expect(() => preflightSecretPath(join(dir, 'exists.pem'), { force: true })).not.toThrow();
    expect(() => preflightSecretPath(join(dir, 'exists.pem', 'k.pem'))).toThrow(/cannot write/);
    if (process.getuid?.() !== 0) {
      const locked = join(dir, 'locked');
      mkdirSync(locked);
      chmodSync(locked, 0o500);
      expect(() => preflightSecretPath(join(locked, 'k.pem'))).toThrow(/cannot write/);
    }
    expect(() => preflightSecretPath(join(dir, 'new', 'k.pem'))).not.toThrow();
  });
});

describe('retry rules', () => {
  it('follows DESIGN §3', () => {
    expect(mayRetry('GET', { kind: 'unknown' })).toBe(true);
    expect(mayRetry('GET', { kind: 'status', status: 503 })).toBe(true);
    expect(mayRetry('GET', { kind: 'status', status: 400 })).toBe(false);
    expect(mayRetry('GET', { kind: 'fatal' })).toBe(false);
    expect(mayRetry('POST', { kind: 'status', status: 429 })).toBe(true);
    expect(mayRetry('POST', { kind: 'status', status: 503 })).toBe(false);
    expect(mayRetry('POST', { kind: 'unknown' })).toBe(false);
    expect(mayRetry('POST', { kind: 'not-sent' })).toBe(true);
    expect(mayRetry('DELETE', { kind: 'unknown' })).toBe(false);
    expect(mayRetry('DELETE', { kind: 'unknown' }, true)).toBe(true);
    expect(mayRetry('DELETE', { kind: 'not-sent' })).toBe(true);
  });

  it('parses Retry-After and backs off exponentially with a cap', () => {
    const now = Date.parse('2026-11-21T12:00:00Z');
    expect(parseRetryAfter('7', now)).toBe(7000);
    expect(parseRetryAfter('Sat, 21 Nov 2026 12:00:10 GMT', now)).toBe(10_000);
    expect(parseRetryAfter('Sat, 21 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-1', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect([0, 1, 2, 10].map((n) => backoffMs(n, () => 1))).toEqual([250, 500, 1000, 8000]);
  });
});

describe('service messages', () => {
  it('reads every error body shape', () => {
    expect(serviceMessage({ error: { code: 'not_found', message: 'api key not found' } })).toEqual({ message: 'api key not found', code: 'not_found' });
    expect(serviceMessage({ code: 'x', message: 'y', details: 'z' })).toEqual({ message: 'y: z', code: 'x' });
    expect(serviceMessage({ error: 'too many requests' })).toEqual({ message: 'too many requests' });
    expect(serviceMessage({ detail: [{ loc: ['query', 'scope'], msg: 'Field required' }, { loc: ['query', 'limit'], msg: 'too big' }] })).toEqual({
      message: 'query.scope: Field required; query.limit: too big',
    });
    expect(serviceMessage('text')).toEqual({});
  });

  it('maps statuses to exit codes', () => {
    expect([400, 401, 403, 404, 409, 422, 429, 500, 503].map(exitCodeForStatus)).toEqual([6, 4, 4, 5, 6, 6, 7, 8, 8]);
  });
});

describe('redaction', () => {
  it('hides secret headers, PEM blocks (even cut off) and secret fields', () => {
    expect(redactHeaders({ Authorization: 'Bearer x', 'kalshi-access-key': 'id' })).toEqual({ Authorization: '[redacted]', 'kalshi-access-key': 'id' });
    expect(redactText('{"private_key":"-----BEGIN RSA PRIVATE KEY-----\\nAAA\\n-----END RSA PRIVATE KEY-----"}')).not.toContain('AAA');
    expect(redactText('x -----BEGIN PRIVATE KEY-----\nAAAA')).toBe('x [redacted PRIVATE KEY]');
    expect(redactText('token=abc&name=n')).toBe('token=[redacted]&name=n');
  });
});

describe('urls', () => {
  it('joins without doubling or dropping slashes and repeats array params', () => {
    const base = parseBaseUrl('https://h.test/trade-api/v2/', 'keys.url');
    expect(joinUrl(base, '/api_keys').href).toBe('https://h.test/trade-api/v2/api_keys');
    expect(joinUrl(parseBaseUrl('https://h.test', 'x'), 'products/count', { store: ['a', 'b'], region: undefined }).href).toBe(
      'https://h.test/products/count?store=a&store=b',
    );
  });

  it('refuses clear text except to loopback where allowed', () => {
    expect(() => assertSecureUrl(new URL('http://example.com'), 'keys.url', true)).toThrow(/clear text/);
    expect(() => assertSecureUrl(new URL('http://127.0.0.1:1'), 'keys.url', true)).not.toThrow();
    expect(() => assertSecureUrl(new URL('http://[::1]:1'), 'keys.url', true)).not.toThrow();
    expect(() => assertSecureUrl(new URL('http://127.0.0.1:1'), 'time.url', false)).toThrow(/clear text/);
    expect(() => parseBaseUrl('ftp://x', 'x')).toThrow(/http/);
  });
});

describe('error reporting', () => {
  const sink = () => {
    let text = '';
    return { stream: { write: (s: string) => ((text += s), true) } as unknown as NodeJS.WritableStream, text: () => text };
  };

  it('prints one line and a hint for known errors', () => {
    const out = sink();
    expect(reportError(new TridentError(ExitCode.notFound, 'no such key', { hint: 'trident keys list' }), out.stream, false)).toBe(5);
    expect(out.text()).toBe('trident: no such key\nhint: trident keys list\n');
  });

  it('calls anything else a bug (exit 1), with the stack only under --debug', () => {
    const out = sink();
    expect(reportError(new Error('boom'), out.stream, false)).toBe(1);
    expect(out.text()).toMatch(/^trident: unexpected error: boom\nhint: this is a bug in trident: please report it/);
    expect(out.text()).not.toContain('at ');
    const debug = sink();
    reportError(new Error('boom'), debug.stream, true);
    expect(debug.text()).toContain('core-misc.test.ts');
  });
});
