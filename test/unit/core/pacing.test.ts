// A batch that paces itself after a 429: the Pacer's waits, the HTTP core telling a batch that a request met a
// 429 even when a retry got through, and the keys sandbox's token buckets.
import { MockAgent } from 'undici';
import { describe, expect, it } from 'vitest';
import { createHttpClient } from '../../../src/core/http/client.js';
import { Pacer } from '../../../src/core/http/pacing.js';
import { RateLimiter } from '../../../src/sandbox/keys/rate-limit.js';

function pacer(random = 0.5) {
  const waits: number[] = [];
  const pace = new Pacer({ sleep: async (ms) => void waits.push(ms), random: () => random });
  return { pace, waits };
}

describe('Pacer', () => {
  it('does not wait until a request is rate limited', async () => {
    const { pace, waits } = pacer();
    for (let i = 0; i < 5; i += 1) {
      await pace.beforeNext();
      pace.record(false);
    }
    expect(waits).toEqual([]);
  });

  it('after a 429 waits before the next request, doubling with each 429 up to 8 s and easing off by a tenth', async () => {
    const { pace, waits } = pacer(1);
    const gaps: number[] = [];
    for (const limited of [true, true, false, true, true, true, true, true, false]) {
      pace.record(limited);
      gaps.push(pace.gap);
      await pace.beforeNext();
    }
    expect(gaps).toEqual([500, 1000, 900, 1800, 3600, 7200, 8000, 8000, 7200]);
    expect(waits).toEqual(gaps);
  });

  it('holds every next request until a Retry-After has passed, the latest one winning, then only its gap', async () => {
    let now = 1000;
    const waits: number[] = [];
    const pace = new Pacer({
      sleep: async (ms) => {
        waits.push(ms);
        now += ms;
      },
      random: () => 1,
      now: () => now,
    });
    pace.holdFor(2000);
    pace.holdFor(500);
    now = 1500;
    await pace.beforeNext();
    expect([waits, now]).toEqual([[1500], 3000]);
    await pace.beforeNext();
    expect(waits).toEqual([1500]);
    pace.record(true);
    await pace.beforeNext();
    expect(waits).toEqual([1500, 500]);
  });

  it('waits again when another request met a Retry-After while it was waiting', async () => {
    let now = 0;
    const waits: number[] = [];
    const pace = new Pacer({
      now: () => now,
      sleep: async (ms) => {
        waits.push(ms);
        // meanwhile, another worker's request is told to come back at 2500
        if (waits.length === 1) pace.holdFor(2500 - now);
        now += ms;
      },
    });
    pace.holdFor(1000);
    await pace.beforeNext();
    expect(waits).toEqual([1000, 1500]);
    expect(now).toBe(2500);
  });

  it('jitters each wait between half the gap and the whole of it', async () => {
    for (const [random, wait] of [
      [0, 250],
      [0.5, 375],
      [0.999, 500],
    ] as const) {
      const { pace, waits } = pacer(random);
      pace.record(true);
      await pace.beforeNext();
      expect(waits).toEqual([wait]);
    }
  });
});

describe('HttpResponse.rateLimited', () => {
  it('says an earlier attempt met a 429 without Retry-After, and not otherwise', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    const sleeps: number[] = [];
    const http = createHttpClient({
      serviceName: 'keys service',
      dispatcher: agent,
      sleep: async (ms) => void sleeps.push(ms),
      random: () => 0.5,
    });
    const pool = agent.get('https://x.test');
    pool.intercept({ path: '/k/1', method: 'DELETE' }).reply(429, { error: 'too many requests' });
    pool.intercept({ path: '/k/1', method: 'DELETE' }).reply(204, '');
    pool.intercept({ path: '/k/2', method: 'DELETE' }).reply(204, '');
    const limited = await http.request({ method: 'DELETE', url: 'https://x.test/k/1', deleteIsRetrySafe: true });
    expect([limited.status, limited.attempts, limited.rateLimited, limited.earlierAttemptMayHaveTakenEffect]).toEqual([
      204,
      2,
      true,
      false,
    ]);
    expect(sleeps).toEqual([125]);
    const clean = await http.request({ method: 'DELETE', url: 'https://x.test/k/2', deleteIsRetrySafe: true });
    expect(clean.rateLimited).toBe(false);
    await agent.close();
  });
});

describe('RequestOptions.onRateLimited', () => {
  it('is told of each 429 as it comes, before the wait, with its Retry-After in ms when there is a readable one', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    const events: string[] = [];
    const http = createHttpClient({
      serviceName: 'time service',
      dispatcher: agent,
      sleep: async (ms) => void events.push(`slept ${ms}`),
      random: () => 0.5,
      retries: 3,
    });
    const pool = agent.get('https://t.test');
    pool.intercept({ path: '/c/1', method: 'POST' }).reply(429, {}, { headers: { 'retry-after': '2' } });
    pool.intercept({ path: '/c/1', method: 'POST' }).reply(429, {}, { headers: { 'retry-after': 'soon' } });
    pool.intercept({ path: '/c/1', method: 'POST' }).reply(503, {});
    pool.intercept({ path: '/c/1', method: 'POST' }).reply(429, {});
    const final = http.request({ method: 'POST', url: 'https://t.test/c/1', onRateLimited: (ms) => void events.push(`429 ${ms}`) });
    await expect(final).rejects.toMatchObject({ status: 503 });
    expect(events).toEqual(['429 2000', 'slept 2000', '429 undefined', 'slept 250']);
    await agent.close();
  });

  it('reports a Retry-After longer than trident ever waits as none, and the request fails at once', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    const events: string[] = [];
    const http = createHttpClient({
      serviceName: 'time service',
      dispatcher: agent,
      sleep: async (ms) => void events.push(`slept ${ms}`),
      retries: 3,
    });
    agent
      .get('https://t.test')
      .intercept({ path: '/c/1', method: 'POST' })
      .reply(429, {}, { headers: { 'retry-after': '3600' } });
    const refused = http.request({ method: 'POST', url: 'https://t.test/c/1', onRateLimited: (ms) => void events.push(`429 ${ms}`) });
    await expect(refused).rejects.toMatchObject({ status: 429 });
    expect(events).toEqual(['429 undefined']);
    await agent.close();
  });
});

describe('the keys sandbox rate limit', () => {
  it('keeps a bucket per class: a burst, then 429 without Retry-After until tokens come back', () => {
    let now = 0;
    const limiter = new RateLimiter({ readPerSecond: 20, writePerSecond: 2, burst: 2 }, () => now);
    expect(limiter.check('DELETE')).toBeUndefined();
    expect(limiter.check('POST')).toBeUndefined();
    const refused = limiter.check('DELETE');
    expect(refused).toEqual({ status: 429, body: { error: 'too many requests' }, headers: undefined });
    expect(limiter.check('GET')).toBeUndefined();
    now = 499;
    expect(limiter.check('DELETE')?.status).toBe(429);
    now = 500;
    expect(limiter.check('DELETE')).toBeUndefined();
    expect(limiter.check('DELETE')?.status).toBe(429);
    now = 60_000;
    expect([limiter.check('DELETE'), limiter.check('DELETE'), limiter.check('DELETE')?.status]).toEqual([undefined, undefined, 429]);
  });
});
