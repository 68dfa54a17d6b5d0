import { MockAgent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHttpClient, type HttpClientOptions } from '../../../src/core/http/client.js';
import { retryWaitText, type RetryWait } from '../../../src/core/http/retry.js';

const ORIGIN = 'https://svc.test';
let agent: MockAgent;
let sleeps: number[];
let log: string[];

beforeEach(() => {
  agent = new MockAgent();
  agent.disableNetConnect();
  sleeps = [];
  log = [];
});
afterEach(() => agent.close());

function client(options: Partial<HttpClientOptions> = {}) {
  return createHttpClient({
    serviceName: 'test service',
    dispatcher: agent,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
    now: () => Date.parse('2026-11-21T12:00:00Z'),
    debug: (line) => log.push(line),
    ...options,
  });
}

describe('retries', () => {
  it('retries a GET on 503 with backoff and then succeeds', async () => {
    const pool = agent.get(ORIGIN);
    pool.intercept({ path: '/x', method: 'GET' }).reply(503, { detail: 'down' });
    pool.intercept({ path: '/x', method: 'GET' }).reply(200, { ok: true });
    const response = await client().request({ method: 'GET', url: `${ORIGIN}/x` });
    expect(response.json()).toEqual({ ok: true });
    expect(response.attempts).toBe(2);
    expect(sleeps).toEqual([125]);
  });

  it('honours Retry-After in seconds and as an HTTP date', async () => {
    const pool = agent.get(ORIGIN);
    pool.intercept({ path: '/x', method: 'GET' }).reply(429, {}, { headers: { 'retry-after': '2' } });
    pool.intercept({ path: '/x', method: 'GET' }).reply(429, {}, { headers: { 'retry-after': 'Sat, 21 Nov 2026 12:00:05 GMT' } });
    pool.intercept({ path: '/x', method: 'GET' }).reply(200, {});
    await client().request({ method: 'GET', url: `${ORIGIN}/x` });
    expect(sleeps).toEqual([2000, 5000]);
  });

  it('gives up after --retries and maps 429 to exit 7 with the wait in the hint', async () => {
    const pool = agent.get(ORIGIN);
    pool
      .intercept({ path: '/x', method: 'GET' })
      .reply(429, { error: 'too many requests' }, { headers: { 'retry-after': '3' } })
      .times(2);
    await expect(client({ retries: 1 }).request({ method: 'GET', url: `${ORIGIN}/x` })).rejects.toMatchObject({
      exitCode: 7,
      message: 'test service answered 429: too many requests',
      hint: 'rate limited: try again in 3 s',
    });
    expect(sleeps).toEqual([3000]);
  });

  it('tells of each wait before a retry as it starts and when it is over, in words a person reads', async () => {
    const pool = agent.get(ORIGIN);
    pool.intercept({ path: '/x', method: 'GET' }).reply(503, {}).times(2);
    pool.intercept({ path: '/x', method: 'GET' }).replyWithError(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }));
    pool.intercept({ path: '/x', method: 'GET' }).reply(200, {});
    const events: string[] = [];
    const http = client({
      retries: 3,
      random: () => 1,
      sleep: async (ms) => {
        events.push(`sleep ${ms}`);
      },
      onRetryWait: (wait) => {
        events.push(retryWaitText(wait));
        return () => events.push('over');
      },
    });
    await http.request({ method: 'GET', url: `${ORIGIN}/x` });
    expect(events).toEqual([
      '503: attempt 2 of 4 in 0.3 s',
      'sleep 250',
      'over',
      '503: attempt 3 of 4 in 0.5 s',
      'sleep 500',
      'over',
      'connection refused: attempt 4 of 4 in 1 s',
      'sleep 1000',
      'over',
    ]);
  });

  it('the wait is over for the line too when the sleep fails, and the last attempt has no wait', async () => {
    agent.get(ORIGIN).intercept({ path: '/x', method: 'GET' }).reply(503, {}).times(2);
    const events: string[] = [];
    const told = (wait: RetryWait) => {
      events.push(retryWaitText(wait));
      return () => events.push('over');
    };
    await expect(client({ retries: 1, onRetryWait: told }).request({ method: 'GET', url: `${ORIGIN}/x` })).rejects.toMatchObject({
      exitCode: 8,
    });
    expect(events).toEqual(['503: attempt 2 of 2 in 0.1 s', 'over']);
    agent.get(ORIGIN).intercept({ path: '/y', method: 'GET' }).reply(503, {});
    const failing = client({ retries: 1, onRetryWait: told, sleep: () => Promise.reject(new Error('stopped')) });
    await expect(failing.request({ method: 'GET', url: `${ORIGIN}/y` })).rejects.toThrow('stopped');
    expect(events.slice(2)).toEqual(['503: attempt 2 of 2 in 0.1 s', 'over']);
  });

  it('does not sleep through a Retry-After longer than the limit', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: '/x', method: 'GET' })
      .reply(429, {}, { headers: { 'retry-after': '3600' } });
    await expect(client().request({ method: 'GET', url: `${ORIGIN}/x` })).rejects.toMatchObject({ exitCode: 7 });
    expect(sleeps).toEqual([]);
  });

  it('never repeats a POST on a 5xx, but does on 429', async () => {
    const pool = agent.get(ORIGIN);
    pool.intercept({ path: '/p', method: 'POST' }).reply(500, { error: { code: 'internal', message: 'boom' } });
    await expect(client().request({ method: 'POST', url: `${ORIGIN}/p`, body: '{}' })).rejects.toMatchObject({ exitCode: 8, status: 500 });
    expect(sleeps).toEqual([]);
    pool.intercept({ path: '/p', method: 'POST' }).reply(429, {});
    pool.intercept({ path: '/p', method: 'POST' }).reply(201, { created: true });
    const response = await client().request({ method: 'POST', url: `${ORIGIN}/p`, body: '{}' });
    expect(response.status).toBe(201);
  });

  it('reports a POST whose connection broke as an unknown outcome, without repeating it', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: '/p', method: 'POST' })
      .replyWithError(Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }));
    await expect(client().request({ method: 'POST', url: `${ORIGIN}/p`, body: '{}' })).rejects.toMatchObject({
      exitCode: 8,
      code: 'UNKNOWN_OUTCOME',
      message: expect.stringContaining('outcome is unknown'),
    });
    expect(sleeps).toEqual([]);
  });

  it('repeats a POST whose connection was refused (it never reached the server)', async () => {
    const pool = agent.get(ORIGIN);
    pool
      .intercept({ path: '/p', method: 'POST' })
      .replyWithError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    pool.intercept({ path: '/p', method: 'POST' }).reply(201, {});
    expect((await client().request({ method: 'POST', url: `${ORIGIN}/p`, body: '{}' })).attempts).toBe(2);
  });

  it('repeats a DELETE after a 503 only when the caller treats 404 as already deleted', async () => {
    const pool = agent.get(ORIGIN);
    pool.intercept({ path: '/d', method: 'DELETE' }).reply(503, {});
    await expect(client().request({ method: 'DELETE', url: `${ORIGIN}/d` })).rejects.toMatchObject({ exitCode: 8 });
    pool.intercept({ path: '/d', method: 'DELETE' }).reply(503, {});
    pool.intercept({ path: '/d', method: 'DELETE' }).reply(404, {});
    const response = await client().request({ method: 'DELETE', url: `${ORIGIN}/d`, deleteIsRetrySafe: true, accept: [404] });
    expect(response).toMatchObject({ status: 404, attempts: 2 });
  });

  it('asks for fresh headers on every attempt', async () => {
    const pool = agent.get(ORIGIN);
    pool.intercept({ path: '/x', method: 'GET', headers: { 'x-n': '1' } }).reply(503, {});
    pool.intercept({ path: '/x', method: 'GET', headers: { 'x-n': '2' } }).reply(200, {});
    let n = 0;
    const response = await client().request({ method: 'GET', url: `${ORIGIN}/x`, headers: () => ({ 'x-n': String(++n) }) });
    expect(response.status).toBe(200);
  });
});

describe('errors', () => {
  it.each([
    [
      401,
      { error: { code: 'authentication_error', message: 'authentication_error', details: 'INCORRECT_API_KEY_SIGNATURE' } },
      4,
      'INCORRECT_API_KEY_SIGNATURE',
    ],
    [403, { code: 'insufficient_permission', message: 'no write scope' }, 4, 'no write scope'],
    [404, { detail: 'product_not_found' }, 5, 'product_not_found'],
    [400, { msg: 'bad limit' }, 6, 'bad limit'],
    [409, { status: 409, message: 'subtrader not visible yet' }, 6, 'subtrader not visible yet'],
    [
      422,
      { detail: [{ type: 'less_than_equal', loc: ['query', 'limit'], msg: 'Input should be less than or equal to 100', input: '500' }] },
      6,
      'query.limit: Input should be less than or equal to 100',
    ],
  ])('maps %i to exit %i with the service message', async (status, body, exitCode, message) => {
    agent.get(ORIGIN).intercept({ path: '/e', method: 'GET' }).reply(status, body);
    await expect(client().request({ method: 'GET', url: `${ORIGIN}/e` })).rejects.toMatchObject({
      exitCode,
      status,
      message: `test service answered ${status}: ${message}`,
    });
  });

  it('says so when an error page is not JSON, and carries the request id', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: '/e', method: 'GET' })
      .reply(502, '<html>Bad Gateway</html>', { headers: { 'x-request-id': 'req-7' } })
      .times(4);
    await expect(client().request({ method: 'GET', url: `${ORIGIN}/e` })).rejects.toMatchObject({
      exitCode: 8,
      message: 'test service answered 502: an answer that is not JSON',
      requestId: 'req-7',
      hint: expect.stringContaining('request id req-7'),
    });
  });

  it('refuses answers over the size cap without retrying', async () => {
    agent.get(ORIGIN).intercept({ path: '/big', method: 'GET' }).reply(200, 'x'.repeat(5000));
    await expect(client({ maxResponseBytes: 1000 }).request({ method: 'GET', url: `${ORIGIN}/big` })).rejects.toMatchObject({
      exitCode: 8,
      message: expect.stringContaining('larger than 1000 bytes'),
    });
    expect(sleeps).toEqual([]);
  });

  it('reports a truncated JSON body as a service failure, not a crash', async () => {
    agent.get(ORIGIN).intercept({ path: '/t', method: 'GET' }).reply(200, '{"items":[1,2');
    const response = await client().request({ method: 'GET', url: `${ORIGIN}/t` });
    expect(() => response.json()).toThrow(expect.objectContaining({ exitCode: 8 }));
  });
});

describe('debug log', () => {
  it('redacts credentials, tokens and PEM blocks', async () => {
    const pem = '-----BEGIN RSA PRIVATE KEY-----\nMIIEsecret\n-----END RSA PRIVATE KEY-----';
    agent.get(ORIGIN).intercept({ path: '/s', method: 'POST' }).reply(201, { private_key: pem, token: 'tok-123' });
    await client().request({
      method: 'POST',
      url: `${ORIGIN}/s`,
      headers: { authorization: 'Bearer tok-123', 'KALSHI-ACCESS-SIGNATURE': 'c2ln' },
      body: 'email=a%40b&password=hunter2',
    });
    const text = log.join('\n');
    expect(text).toContain('> POST https://svc.test/s');
    expect(text).toContain('< 201');
    for (const secret of ['tok-123', 'MIIEsecret', 'hunter2', 'c2ln', 'PRIVATE KEY-----\n']) expect(text).not.toContain(secret);
  });
});

describe('hostile answers', () => {
  it('a 3xx is never a success: exit 8 naming the status and Location, not retried, on every verb', async () => {
    const pool = agent.get(ORIGIN);
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      pool.intercept({ path: '/x', method }).reply(302, '', { headers: { location: 'https://sso.test/login' } });
      await expect(client().request({ method, url: `${ORIGIN}/x`, deleteIsRetrySafe: true })).rejects.toMatchObject({
        exitCode: 8,
        status: 302,
        code: 'REDIRECT',
        message: 'test service answered 302 (a redirect to https://sso.test/login), which trident does not follow',
      });
    }
    expect(sleeps).toEqual([]);
  });

  it('a 303 to a POST says the service acted: an unknown outcome', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: '/x', method: 'POST' })
      .reply(303, '', { headers: { location: '/x/1' } });
    await expect(client().request({ method: 'POST', url: `${ORIGIN}/x`, body: '' })).rejects.toMatchObject({
      exitCode: 8,
      status: 303,
      code: 'UNKNOWN_OUTCOME',
    });
  });

  it('a 5xx to a POST is an unknown outcome (status kept), never "try again later", not repeated', async () => {
    agent.get(ORIGIN).intercept({ path: '/x', method: 'POST' }).reply(502, { message: 'bad gateway' });
    const error = await client()
      .request({ method: 'POST', url: `${ORIGIN}/x`, body: '' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      exitCode: 8,
      status: 502,
      code: 'UNKNOWN_OUTCOME',
      message: 'test service answered 502: bad gateway; the request was sent, so its outcome is unknown',
      hint: 'check whether it took effect before running the command again',
    });
    expect(sleeps).toEqual([]);
  });

  it('--debug redacts a long answer before it cuts it: no part of the token shows', async () => {
    const token = 'SECRETTOKEN0123456789';
    const body = `{"pad":"${'x'.repeat(3970)}","token":"${token}"}`; // the cut (4000) falls inside the token
    agent.get(ORIGIN).intercept({ path: '/auth', method: 'POST' }).reply(200, body);
    await client().request({ method: 'POST', url: `${ORIGIN}/auth`, body: 'password=hunter2' });
    const text = log.join('\n');
    expect(text).not.toContain('SECRET');
    expect(text).not.toContain('hunter2');
    expect(text).toContain('"token":"[redacted]"');
  });
});

describe('url and proxy helpers', () => {
  it('redacts a password in any URL of a text', async () => {
    const { redactUrlText } = await import('../../../src/core/http/redact.js');
    expect(redactUrlText('see http://me:pw@proxy:3128/ and https://u@h/')).toBe('see http://me:[redacted]@proxy:3128/ and https://u@h/');
  });

  it('counts every spelling of this machine as loopback', async () => {
    const { isLoopback } = await import('../../../src/core/http/url.js');
    for (const url of [
      'http://127.0.0.1',
      'http://127.9.8.7:1',
      'http://[::1]',
      'http://localhost',
      'http://localhost.',
      'http://[::ffff:127.0.0.1]',
      'http://127.1',
    ]) {
      expect(isLoopback(new URL(url)), url).toBe(true);
    }
    for (const url of [
      'http://0.0.0.0',
      'http://[::]',
      'http://10.0.0.1',
      'http://[::ffff:10.0.0.1]',
      'http://localhost.example',
      'http://128.0.0.1',
    ])
      expect(isLoopback(new URL(url)), url).toBe(false);
  });

  it('never proxies loopback, honours NO_PROXY, and refuses a proxy value that is not a URL (exit 2)', async () => {
    const { proxiesFrom, proxyFor } = await import('../../../src/core/http/proxies.js');
    const proxies = proxiesFrom({ HTTPS_PROXY: 'http://p:3128', NO_PROXY: '.internal,other:8443' })!;
    expect(proxyFor(proxies, new URL('https://127.0.0.1/x'))).toBeUndefined();
    expect(proxyFor(proxies, new URL('https://svc.internal/x'))).toBeUndefined();
    expect(proxyFor(proxies, new URL('https://other:8443/x'))).toBeUndefined();
    expect(proxyFor(proxies, new URL('https://other/x'))).toMatchObject({ variable: 'HTTPS_PROXY' });
    expect(() => proxyFor(proxiesFrom({ http_proxy: 'http://me:pw@[bad' }), new URL('http://svc.test'))).toThrow(
      expect.objectContaining({ exitCode: 2, message: 'invalid http_proxy "http://me:[redacted]@[bad": not a proxy URL' }),
    );
  });
});
