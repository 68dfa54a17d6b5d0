import { mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync, chmodSync, mkdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mebibytesFromEnv, readFileCapped, readFileCappedSync, readStreamCapped } from '../../../src/core/files/capped-read.js';
import { ExitCode, TridentError, exitCodeForStatus } from '../../../src/core/errors.js';
import { assertTrustedDir, assertTrustedFile, withFileTrust } from '../../../src/core/files/file-trust.js';
import { redactHeaders, redactText } from '../../../src/core/http/redact.js';
import { backoffMs, mayRetry, parseRetryAfter } from '../../../src/core/http/retry.js';
import { preflightSecretPath, writeSecretFile } from '../../../src/core/files/secret-file.js';
import { serviceMessage } from '../../../src/core/http/service-message.js';
import { assertSecureUrl, joinUrl, parseBaseUrl } from '../../../src/core/http/url.js';
import { reportError } from '../../../src/core/term/report-error.js';
import { failedAt, fileSystemFailure } from '../../../src/core/files/file-system-failure.js';

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
  it('retries only where repeating cannot do harm', () => {
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
    // Any other method (trident api -X) is a write unless it only reads.
    for (const method of ['PUT', 'PATCH', 'PROPPATCH']) {
      expect([method, mayRetry(method, { kind: 'status', status: 503 }), mayRetry(method, { kind: 'unknown' })]).toEqual([
        method,
        false,
        false,
      ]);
      expect([method, mayRetry(method, { kind: 'status', status: 429 }), mayRetry(method, { kind: 'not-sent' })]).toEqual([
        method,
        true,
        true,
      ]);
    }
    for (const method of ['HEAD', 'OPTIONS']) expect([method, mayRetry(method, { kind: 'status', status: 503 })]).toEqual([method, true]);
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
    expect(serviceMessage({ error: { code: 'not_found', message: 'api key not found' } })).toEqual({
      message: 'api key not found',
      code: 'not_found',
    });
    expect(serviceMessage({ code: 'x', message: 'y', details: 'z' })).toEqual({ message: 'y: z', code: 'x' });
    expect(serviceMessage({ error: 'too many requests' })).toEqual({ message: 'too many requests' });
    expect(
      serviceMessage({
        detail: [
          { loc: ['query', 'scope'], msg: 'Field required' },
          { loc: ['query', 'limit'], msg: 'too big' },
        ],
      }),
    ).toEqual({
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
    expect(redactHeaders({ Authorization: 'Bearer x', 'kalshi-access-key': 'id' })).toEqual({
      Authorization: '[redacted]',
      'kalshi-access-key': 'id',
    });
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

  it('under --debug, a known failure adds what caused it, never a stack', () => {
    const out = sink();
    const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    reportError(new TridentError(ExitCode.unavailable, 'connection to 127.0.0.1:9 failed', { hint: 'check', cause }), out.stream, true);
    expect(out.text()).toBe(
      'trident: connection to 127.0.0.1:9 failed\nhint: check\ndebug: caused by ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9\n',
    );
    const usage = sink();
    reportError(new TridentError(ExitCode.usage, 'unknown setting "nope"'), usage.stream, true);
    expect(usage.text()).toBe('trident: unknown setting "nope"\n');
  });

  it('calls anything else a bug (exit 1), with the stack only under --debug', () => {
    const out = sink();
    expect(reportError(new Error('boom'), out.stream, false)).toBe(1);
    expect(out.text()).toMatch(/^trident: unexpected error: boom\nhint: this is a bug in trident: please report it/);
    expect(out.text()).not.toContain('at ');
    const debug = sink();
    reportError(new Error('boom'), debug.stream, true);
    expect(debug.text()).toContain('core/misc.test.ts');
  });
});

describe('capped reads (core/files/capped-read.ts)', () => {
  it('reads a file up to the cap, and refuses one byte more (exit 2), sync and async alike', async () => {
    const file = join(tmp(), 'f');
    writeFileSync(file, 'x'.repeat(1024));
    expect(readFileCappedSync(file, 1024, 'the file')).toHaveLength(1024);
    expect(await readFileCapped(file, 1024, 'the file')).toHaveLength(1024);
    expect(() => readFileCappedSync(file, 1023, 'the file')).toThrow(/^the file is larger than .* KiB: not read$/);
    await expect(readFileCapped(file, 1023, 'the file', 'a hint')).rejects.toMatchObject({ exitCode: 2, hint: 'a hint' });
  });

  it('stops reading /dev/zero at the cap', async () => {
    expect(() => readFileCappedSync('/dev/zero', 64 * 1024, '/dev/zero')).toThrow('/dev/zero is larger than 64 KiB: not read');
    await expect(readFileCapped('/dev/zero', 1024 * 1024, '/dev/zero')).rejects.toThrow('/dev/zero is larger than 1 MiB: not read');
  });

  it('drops a stream that says more than the cap', async () => {
    const { PassThrough } = await import('node:stream');
    const stream = new PassThrough();
    stream.end(Buffer.alloc(2048));
    await expect(readStreamCapped(stream, 1024, 'stdin')).rejects.toThrow('stdin is larger than 1 KiB: not read');
    const small = new PassThrough();
    small.end('hello');
    expect(await readStreamCapped(small, 1024, 'stdin')).toBe('hello');
  });

  it('reads a MiB setting from the environment, refusing anything but 1..4096', () => {
    expect(mebibytesFromEnv({ X: '2' }, 'X')).toBe(2 * 1024 * 1024);
    expect(mebibytesFromEnv({ X: '' }, 'X')).toBeUndefined();
    for (const bad of ['0', '4097', '1.5', 'lots']) expect(() => mebibytesFromEnv({ X: bad }, 'X')).toThrow(`invalid X "${bad}"`);
  });
});

describe('file trust (core/files/file-trust.ts)', () => {
  it('refuses what others can write, accepts sticky directories, follows or refuses links as asked', () => {
    const dir = tmp();
    const file = join(dir, 'secret');
    writeFileSync(file, 's', { mode: 0o600 });
    expect(() => assertTrustedFile(file, 'token file', 'refuse')).not.toThrow();
    chmodSync(file, 0o660);
    expect(() => assertTrustedFile(file, 'token file', 'refuse')).toThrow(
      `token file ${file} can be written by other users (mode 660): refused`,
    );
    chmodSync(file, 0o644);
    expect(() => assertTrustedFile(file, 'token file', 'refuse')).not.toThrow();
    const link = join(tmp(), 'link');
    symlinkSync(file, link);
    expect(() => assertTrustedFile(link, 'token file', 'refuse')).toThrow(/is a symbolic link: refused$/);
    expect(() => assertTrustedFile(link, 'token file', 'follow')).not.toThrow();
    chmodSync(dir, 0o1777);
    expect(() => assertTrustedDir(dir, 'directory')).not.toThrow();
    chmodSync(dir, 0o777);
    expect(() => assertTrustedFile(link, 'token file', 'follow')).toThrow(
      `directory ${dir} can be written by other users (mode 777): refused`,
    );
    expect(() => assertTrustedFile(join(dir, 'missing'), 'token file', 'refuse')).not.toThrow();
  });

  it('TRIDENT_INSECURE_CONFIG=1 turns the checks off', () => {
    const dir = tmp();
    chmodSync(dir, 0o777);
    withFileTrust({ TRIDENT_INSECURE_CONFIG: '1' }, () => expect(() => assertTrustedDir(dir, 'directory')).not.toThrow());
    expect(() => assertTrustedDir(dir, 'directory')).toThrow(/refused$/);
  });
});

describe('error reporting of the environment', () => {
  const report = (error: unknown) => {
    let text = '';
    const stream = { write: (s: string) => ((text += s), true) } as unknown as NodeJS.WritableStream;
    return { code: reportError(error, stream, false), text };
  };
  const errno = (code: string, syscall: string, path?: string) =>
    Object.assign(new Error(`${code}: ${syscall}`), { code, syscall, ...(path ? { path } : {}) });

  it('a full disk, a read-only mount or a path that is not yours is exit 2 naming the file and what to do, never a bug', () => {
    expect(report(errno('ENOSPC', 'write', '/cfg/keys/x.pem'))).toEqual({
      code: 2,
      text: 'trident: cannot write /cfg/keys/x.pem: no space left on device\nhint: free some space on that file system, then run the command again\n',
    });
    expect(report(errno('EROFS', 'mkdir', '/cfg/pending'))).toEqual({
      code: 2,
      text: 'trident: cannot write /cfg/pending: read-only file system\nhint: that file system is mounted read-only: remount it read-write, or set TRIDENT_CONFIG_DIR to a directory on a writable one\n',
    });
    expect(report(errno('EACCES', 'scandir', '/cfg/rotations')).text).toBe(
      'trident: cannot read /cfg/rotations: permission denied\nhint: check the permissions of that path and of the directories above it\n',
    );
    expect(report(errno('EDQUOT', 'open', '/cfg/settings.json')).text).toMatch(
      /^trident: cannot write \/cfg\/settings.json: disk quota exceeded\nhint: free some space within your disk quota/,
    );
    // An open refused for permission may have been a read.
    expect(report(errno('EACCES', 'open', '/cfg/pending/a.json')).text).toMatch(
      /^trident: cannot open \/cfg\/pending\/a.json: permission denied\n/,
    );
  });

  it('one of those without a path (a write to an open file) is exit 2 too; another code is exit 2 only with a path', () => {
    expect(report(errno('ENOSPC', 'write'))).toEqual({
      code: 2,
      text: 'trident: cannot write a file: no space left on device\nhint: free some space on that file system, then run the command again\n',
    });
    expect(report(errno('EIO', 'read', '/cfg/settings.json')).text).toBe(
      'trident: cannot read /cfg/settings.json: EIO\nhint: check the disk (space, read-only) and the permissions of that path\n',
    );
    // Without a path it is not known to be local: still a bug.
    expect(report(Object.assign(new Error('x'), { code: 'EINVAL' })).code).toBe(1);
  });

  it('a writer names the file it was writing, not its temp file or nothing', () => {
    const named = fileSystemFailure(errno('ENOSPC', 'open', '/cfg/keys/.x.pem.abc.tmp'), '/cfg/keys/x.pem');
    expect(named?.message).toBe('cannot write /cfg/keys/x.pem: no space left on device');
    const moved = failedAt(errno('ENOSPC', 'write'), '/cfg/keys/x.pem') as NodeJS.ErrnoException;
    expect(moved).toMatchObject({ code: 'ENOSPC', syscall: 'write', path: '/cfg/keys/x.pem' });
    expect(report(moved).text).toMatch(/^trident: cannot write \/cfg\/keys\/x.pem: no space left on device\n/);
    const trident = new TridentError(2, 'x');
    expect(failedAt(trident, '/y')).toBe(trident);
  });
});
