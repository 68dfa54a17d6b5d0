// Servers that break HTTP or the services' contracts on purpose: answers llhttp refuses, a 101 or a 1xx
// where the answer belongs, a 204 or a gzip body where JSON is due, a Content-Length past the cap, paging
// that cannot be followed, and a login answer long enough that --debug's cut falls inside the token.
// Each ends in exit 8 (or succeeds with nothing leaked), bounded, with one line naming what was wrong.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SANDBOX_TIME_USER } from '../../src/sandbox/time/server.js';
import { rawAnswer, startHostileServer, type RawExchange } from '../helpers/hostile/server.js';
import { envFor, errorOf, requestsFrom, trident, withServices } from './harness.js';

async function against(answer: (exchange: RawExchange) => void | Promise<void>, args: string[]) {
  const server = await startHostileServer(answer);
  try {
    const run = await trident([...args, '--url', server.url]);
    return { run, server };
  } finally {
    await server.close();
  }
}

const json = (body: unknown) => {
  const text = JSON.stringify(body);
  return rawAnswer('200 OK', { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(text)) }, text);
};

const brokenAnswers: Array<[string, string, RegExp]> = [
  [
    'a header value with control characters',
    rawAnswer('302 Found', { Location: 'https://evil.example/\x1b[2J\x07', 'Content-Length': '0' }),
    /did not answer with valid HTTP: Invalid header value char$/,
  ],
  [
    'a 101 Switching Protocols nobody asked for',
    rawAnswer('101 Switching Protocols', { Upgrade: 'websocket', Connection: 'Upgrade' }),
    /did not answer with valid HTTP: a 101 Switching Protocols nobody asked for$/,
  ],
  [
    'a 100 Continue and then nothing',
    rawAnswer('100 Continue', {}),
    /did not answer with valid HTTP: an informational \(1xx\) answer and then nothing$/,
  ],
  ['another protocol on the port (SSH)', 'SSH-2.0-OpenSSH_9.6\r\n', /did not answer with valid HTTP: Expected HTTP\/, RTSP\/ or ICE\/$/],
  [
    'a broken chunked body',
    rawAnswer('200 OK', { 'Transfer-Encoding': 'chunked' }, 'zz\r\n'),
    /did not answer with valid HTTP while sending the answer: Invalid character in chunk size$/,
  ],
  ['a 204 where JSON is due', rawAnswer('204 No Content', {}), /^catalog service answered 204 with a body that is not valid JSON$/],
  [
    'a gzip body (a bomb claim) that is never inflated',
    rawAnswer('200 OK', { 'Content-Encoding': 'gzip', 'Content-Length': '10' }, '\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03'),
    /^catalog service answered 200 with a body that is not valid JSON$/,
  ],
  [
    'headers past any sane size',
    rawAnswer('200 OK', { 'X-Flood': 'x'.repeat(70_000) }),
    /did not answer with valid HTTP: headers larger than 16 KiB$/,
  ],
  [
    'a Content-Length of a terabyte',
    rawAnswer('200 OK', { 'Content-Length': '999999999999' }, '{}'),
    /^the answer from 127\.0\.0\.1:\d+ is larger than 16 MiB; stopped reading$/,
  ],
];

describe.concurrent('answers that break HTTP', () => {
  it.each(brokenAnswers)('%s: exit 8, one line, bounded', async (_name, payload, message) => {
    const { run, server } = await against(
      ({ socket }) => void socket.end(payload, 'latin1'),
      ['catalog', 'health', '--retries', '0', '--timeout', '5'],
    );
    expect(run.exitCode, run.stderr).toBe(8);
    expect(errorOf(run).message).toMatch(message);
    expect(run.stderr).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
    expect(run.ms).toBeLessThan(12_000);
    expect(server.count('GET')).toBeGreaterThanOrEqual(1);
  });
});

describe.concurrent('stalls inside the exchange', () => {
  it('headers that never end (one line every 200 ms): exit 8 within the deadline', async () => {
    const { run, server } = await against(
      async ({ socket }) => {
        socket.write('HTTP/1.1 200 OK\r\n');
        for (let n = 0; n < 200 && !socket.destroyed; n += 1) {
          socket.write(`X-Filler-${n}: x\r\n`);
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      },
      ['catalog', 'health', '--retries', '0', '--timeout', '2'],
    );
    expect(run.exitCode, run.stderr).toBe(8);
    expect(errorOf(run).message).toMatch(/^no answer from 127\.0\.0\.1:\d+ in time \(waiting for the answer\)$/);
    expect(run.ms).toBeLessThan(12_000);
    expect(server.count('GET')).toBe(1);
  });

  it('a TLS handshake that never happens (https to a port that only accepts): exit 8, "connecting", nothing sent', async () => {
    const server = await startHostileServer(() => undefined);
    try {
      const url = server.url.replace('http:', 'https:');
      const run = await trident(['time', 'projects', '--url', `${url}/api/v1`, '--timeout', '2', '--retries', '0'], {
        env: { TRIDENT_TIME_TOKEN: 'tok' },
      });
      expect(run.exitCode, run.stderr).toBe(8);
      expect(errorOf(run).message).toMatch(/^no answer from 127\.0\.0\.1:\d+ in time \(connecting\)$/);
      expect(run.ms).toBeLessThan(12_000);
      expect(server.requests).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

/** A product row as the catalog lists it. */
const product = (n: number) => ({
  canonical_product_id: `p-${n}`,
  title: `Product ${n}`,
  brand: null,
  price_from: 1,
  price_unit: 'EUR',
  sources_count: 1,
  observed_at_latest: null,
  image_url: null,
  parsers: [],
});
const queryOf = (requestLine: string) => new URL(requestLine.split(' ')[1]!, 'http://x').searchParams;
/** A page of 100 products numbered from `first`, under the meta given. */
const page = (first: number, meta: { offset: number; total: number }) =>
  json({ items: Array.from({ length: 100 }, (_, i) => product(first + i)), meta: { limit: 100, ...meta } });

describe.concurrent('paging that cannot be followed (catalog products --all)', () => {
  it('a service that ignores offset (the same page again): exit 8 after the first page, not the same rows for ever', async () => {
    const { run, server } = await against(
      ({ socket }) => {
        socket.write(page(0, { offset: 0, total: 250 }));
      },
      ['catalog', 'products', '--all', '-o', 'ndjson'],
    );
    expect(run.exitCode, run.stderr).toBe(8);
    expect(errorOf({ ...run, stdout: '' }).message).toBe(
      'stopped following the pages of the catalog service: the page at offset 100 is the same as the one at offset 0: the service seems to ignore offset',
    );
    const rows = run.stdout.trim().split('\n');
    expect(rows).toHaveLength(100);
    expect(new Set(rows).size).toBe(100);
    // The first page, and the two asked for ahead of it (one may be sent again: this server may close a connection
    // Node's agent has just taken up again, and a GET is retried).
    expect(new Set(server.requests.filter((request) => request.startsWith('GET '))).size).toBeLessThanOrEqual(3);
  });

  it('a total that moves away as fast as the pages are read: exit 8 within a few pages', async () => {
    const { run, server } = await against(
      ({ requestLine, socket }) => {
        const offset = Number(queryOf(requestLine).get('offset') ?? 0);
        socket.write(page(offset, { offset, total: offset + 300 }));
      },
      ['catalog', 'products', '--all', '-o', 'ndjson'],
    );
    expect(run.exitCode, run.stderr).toBe(8);
    expect(errorOf({ ...run, stdout: '' }).message).toMatch(
      /^stopped following the pages of the catalog service: the list's total keeps moving ahead \(\d+ at offset \d+\) as fast as its pages are read$/,
    );
    // Four pages read, two asked for ahead.
    expect(server.count('GET')).toBeLessThanOrEqual(6);
    expect(run.stdout.trim().split('\n').length).toBeLessThanOrEqual(400);
  });

  it('pages that go round in a circle (A, B, A, B … under a total of a billion): exit 8 at the first page seen before, each row printed once', async () => {
    const { run, server } = await against(
      ({ requestLine, socket }) => {
        const offset = Number(queryOf(requestLine).get('offset') ?? 0);
        const first = (offset / 100) % 2 === 0 ? 0 : 100;
        socket.write(page(first, { offset, total: 1_000_000_000 }));
      },
      ['catalog', 'products', '--all', '-o', 'ndjson'],
    );
    expect(run.exitCode, run.stderr).toBe(8);
    expect(errorOf({ ...run, stdout: '' }).message).toBe(
      "stopped following the pages of the catalog service: the page at offset 200 is the same as the one at offset 0: the service's pages go round in a circle",
    );
    const rows = run.stdout.trim().split('\n');
    expect(rows).toHaveLength(200);
    expect(new Set(rows).size).toBe(200);
    // Three pages read, two asked for ahead.
    expect(server.count('GET')).toBeLessThanOrEqual(5);
    expect(run.ms).toBeLessThan(12_000);
  });

  it('pages of new rows past the total the first page gave (250, then a billion): exit 8 before printing rows beyond what a growing list may add', async () => {
    const { run, server } = await against(
      ({ requestLine, socket }) => {
        const offset = Number(queryOf(requestLine).get('offset') ?? 0);
        socket.write(page(offset, { offset, total: offset === 0 ? 250 : 1_000_000_000 }));
      },
      ['catalog', 'products', '--all', '-o', 'ndjson'],
    );
    expect(run.exitCode, run.stderr).toBe(8);
    expect(errorOf({ ...run, stdout: '' }).message).toBe(
      'stopped following the pages of the catalog service: its pages hold more rows than the 250 its first page said the list has (400 so far)',
    );
    // 250 and the page a growing list may add at most: three pages of 100.
    expect(run.stdout.trim().split('\n')).toHaveLength(300);
    expect(server.count('GET')).toBeLessThanOrEqual(6);
    expect(run.ms).toBeLessThan(12_000);
  });

  it('a list that grows a little while it is read is still followed to its end', async () => {
    let asked = 0;
    const { run } = await against(
      ({ requestLine, socket }) => {
        asked += 1;
        const offset = Number(queryOf(requestLine).get('offset') ?? 0);
        const total = 250 + Math.min(asked, 2) * 10;
        const count = Math.max(0, Math.min(100, total - offset));
        socket.write(json({ items: Array.from({ length: count }, (_, i) => product(offset + i)), meta: { limit: 100, offset, total } }));
      },
      ['catalog', 'products', '--all', '-o', 'ndjson'],
    );
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout.trim().split('\n').length).toBeGreaterThanOrEqual(250);
  });
});

describe.concurrent('--debug never shows a secret', () => {
  it('a login answer long enough that the 4000-character cut falls inside the token', async () => {
    await withServices(['time'], async (s) => {
      // A token the service really issued: login checks it with one request before storing it.
      const token = s.time.control.issueToken('trident-cli');
      const head = '{"pad":"';
      const beforeToken = `${head}${'x'.repeat(3990 - head.length - '","token":"'.length)}","token":"`;
      const payload = `${beforeToken}${token}","account_id":1}`;
      expect(beforeToken.length).toBeLessThan(4000);
      expect(beforeToken.length + token.length).toBeGreaterThan(4000);
      s.time.server.faults.add({
        method: 'POST',
        path: '/api/v1/auth',
        fault: { kind: 'body', status: 200, payload, afterProcessing: true },
      });
      const sent = requestsFrom(s.time.server);
      const run = await trident(['time', 'login', '--email', SANDBOX_TIME_USER.email, '--password-stdin', '--debug'], {
        env: envFor.timeServer(s),
        input: `${SANDBOX_TIME_USER.password}\n`,
      });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.stderr).toContain('"token":"[redacted]');
      for (let at = 0; at + 8 <= token.length; at += 4) expect(run.stderr).not.toContain(token.slice(at, at + 8));
      expect(run.stderr).not.toContain(SANDBOX_TIME_USER.password);
      expect(sent()).toEqual(['POST /api/v1/auth', 'GET /api/v1/projects']);
      expect(JSON.parse(readFileSync(join(run.configDir, 'tokens', 'default.json'), 'utf8'))).toMatchObject({ token });
    });
  });
});
