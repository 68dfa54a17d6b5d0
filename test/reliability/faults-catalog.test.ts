// The catalog service misbehaving under the built CLI. Every route is a GET, so every failure that may be
// passing is retried (--retries times), honouring Retry-After; what cannot pass (a certificate, an answer over
// the size cap) is not. Each case runs against a sandbox of its own, so the cases run concurrently.
import { describe, expect, it } from 'vitest';
import { runFaultCase, times, type FaultCase } from './fault-case.js';
import { PROD_1, PROD_2, closedPort } from './harness.js';

const HEALTH = 'GET /healthz';
const health = (...flags: string[]) => ['catalog', 'health', ...flags];
const MiB = 1024 * 1024;

const cases: FaultCase[] = [
  {
    name: '429 without Retry-After, --retries 0: exit 7 at once',
    faults: [{ path: '/healthz', fault: { kind: 'status', status: 429, body: { detail: 'too many requests' } } }],
    args: health('--retries', '0'),
    exit: 7,
    message: /^catalog service answered 429: too many requests$/,
    hint: /^rate limited: wait a little and try again$/,
    sent: [HEALTH],
  },
  {
    name: '429 with Retry-After: 1 (seconds), then ok: waits a second and succeeds',
    faults: [{ path: '/healthz', fault: { kind: 'status', status: 429, headers: { 'retry-after': '1' } } }],
    args: health('--retries', '1', '-o', 'json'),
    exit: 0,
    sent: times(2, HEALTH),
    minMs: 1000,
    check: (run) => expect(JSON.parse(run.stdout)).toEqual({ status: 'ok' }),
  },
  {
    name: '429 with Retry-After as an HTTP-date two seconds ahead, then ok: waits until then',
    faults: () => [
      { path: '/healthz', fault: { kind: 'status', status: 429, headers: { 'retry-after': new Date(Date.now() + 2000).toUTCString() } } },
    ],
    args: health('--retries', '1'),
    exit: 0,
    sent: times(2, HEALTH),
    // An HTTP-date has whole seconds: the wait is between one and two seconds.
    minMs: 900,
  },
  {
    name: '429 every time: gives up after --retries 1 with the wait in the hint',
    faults: [{ path: '/healthz', fault: { kind: 'status', status: 429, headers: { 'retry-after': '1' } }, times: 5 }],
    args: health('--retries', '1'),
    exit: 7,
    hint: /^rate limited: try again in 1 s$/,
    sent: times(2, HEALTH),
    minMs: 1000,
  },
  {
    name: '503 twice, then ok: three GETs with the default retries',
    faults: [{ path: '/healthz', fault: { kind: 'status', status: 503 }, times: 2 }],
    args: health(),
    exit: 0,
    sent: times(3, HEALTH),
  },
  {
    name: '500 every time, --retries 1: exit 8 after two GETs',
    faults: [{ path: '/healthz', fault: { kind: 'status', status: 500, body: { detail: 'database is locked' } }, times: 5 }],
    args: health('--retries', '1'),
    exit: 8,
    message: /^catalog service answered 500: database is locked$/,
    hint: /^the service failed; try again later$/,
    sent: times(2, HEALTH),
  },
  {
    name: '502 with --retries 0: one GET',
    faults: [{ path: '/healthz', fault: { kind: 'status', status: 502 }, times: 5 }],
    args: health('--retries', '0'),
    exit: 8,
    message: /answered 502/,
    sent: [HEALTH],
  },
  {
    name: 'connection reset before the answer, every time, --retries 1',
    faults: [{ path: '/healthz', fault: { kind: 'reset' }, times: 5 }],
    args: health('--retries', '1'),
    exit: 8,
    message: /^connection to 127\.0\.0\.1:\d+ failed: other side closed$/,
    hint: /^check that the service is up, then try again$/,
    sent: times(2, HEALTH),
  },
  {
    name: 'connection reset once, then ok',
    faults: [{ path: '/healthz', fault: { kind: 'reset' } }],
    args: health(),
    exit: 0,
    sent: times(2, HEALTH),
  },
  {
    name: 'the answer stops halfway, --retries 0',
    faults: [{ path: '/products/count', fault: { kind: 'truncate', afterProcessing: true }, times: 5 }],
    args: ['catalog', 'count', '--retries', '0'],
    exit: 8,
    message: /failed while reading the answer/,
    sent: ['GET /products/count'],
  },
  {
    name: 'the answer stops halfway once, then the whole answer comes',
    faults: [{ path: '/products/count', fault: { kind: 'truncate', afterProcessing: true } }],
    args: ['catalog', 'count', '-o', 'json'],
    exit: 0,
    sent: times(2, 'GET /products/count'),
    check: (run) => expect(JSON.parse(run.stdout)).toEqual({ products_count: 2, stores: null, regions: null }),
  },
  {
    name: 'no answer at all, --timeout 1 --retries 0: exit 8 within seconds',
    faults: [{ path: '/healthz', fault: { kind: 'hang' }, times: 5 }],
    args: health('--timeout', '1', '--retries', '0'),
    exit: 8,
    message: /^no answer from 127\.0\.0\.1:\d+ in time \(waiting for the answer\)$/,
    hint: /raise --timeout/,
    sent: [HEALTH],
    minMs: 1000,
    maxMs: 5000,
  },
  {
    name: 'an HTML error page instead of JSON',
    faults: [
      {
        path: '/healthz',
        fault: { kind: 'body', status: 502, payload: '<html><body><h1>502 Bad Gateway</h1></body></html>', contentType: 'text/html' },
        times: 5,
      },
    ],
    args: health('--retries', '0'),
    exit: 8,
    message: /^catalog service answered 502: an answer that is not JSON$/,
    sent: [HEALTH],
  },
  {
    name: 'a truncated JSON body with status 200',
    faults: [{ path: '/healthz', fault: { kind: 'body', payload: '{"status":"o' } }],
    args: health(),
    exit: 8,
    message: /^catalog service answered 200 with a body that is not valid JSON$/,
    hint: /cut off/,
    sent: [HEALTH],
  },
  {
    name: 'an answer over the 16 MiB cap: stopped, not retried',
    faults: [{ path: '/healthz', fault: { kind: 'huge', bytes: 17 * MiB }, times: 5 }],
    args: health(),
    exit: 8,
    message: /^the answer from 127\.0\.0\.1:\d+ is larger than 16 MiB; stopped reading$/,
    hint: /TRIDENT_MAX_RESPONSE_MB/,
    sent: [HEALTH],
  },
  {
    name: 'TRIDENT_MAX_RESPONSE_MB=1 lowers the cap',
    faults: [{ path: '/healthz', fault: { kind: 'huge', bytes: 2 * MiB } }],
    args: health(),
    env: { TRIDENT_MAX_RESPONSE_MB: '1' },
    exit: 8,
    message: /is larger than 1 MiB/,
    sent: [HEALTH],
  },
  {
    name: '--all: the second page fails twice with 503, then the walk goes on to the end',
    faults: [{ method: 'GET', path: '/products', skip: 1, times: 2, fault: { kind: 'status', status: 503 } }],
    args: ['catalog', 'products', '--all', '--limit', '1', '--sort', 'price_asc', '-o', 'ndjson'],
    exit: 0,
    sent: times(4, 'GET /products'),
    check: (run) =>
      expect(
        run.stdout
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line).canonical_product_id),
      ).toEqual([PROD_2, PROD_1]),
  },
  {
    name: '--all: the second page is cut off, --retries 0: the first page was streamed, exit 8',
    faults: [{ method: 'GET', path: '/products', skip: 1, fault: { kind: 'truncate', afterProcessing: true } }],
    args: ['catalog', 'products', '--all', '--limit', '1', '--sort', 'price_asc', '--retries', '0', '-o', 'ndjson'],
    exit: 8,
    partialStdout: true,
    message: /while reading the answer/,
    sent: times(2, 'GET /products'),
    check: (run) =>
      expect(
        run.stdout
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line).canonical_product_id),
      ).toEqual([PROD_2]),
  },
];

describe.concurrent('catalog under faults', () => {
  it.each(cases)('$name', async (c) => {
    await runFaultCase('catalog', c);
  });

  it('a service that is down: connection refused, retried (it never got the request), exit 8', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    await runFaultCase('catalog', {
      name: 'down',
      args: health('--retries', '1'),
      env: { TRIDENT_CATALOG_URL: url },
      exit: 8,
      message: /^cannot connect to 127\.0\.0\.1:\d+: connection refused$/,
      hint: /check the URL/,
      sent: [],
    });
  });
});
