// Hostile networks: proxies that stall, drop the tunnel, refuse or want credentials; servers that never
// answer or drip their body; proxies set for services on this machine; broken proxy settings and CA files.
// Every case ends within one deadline per attempt (--timeout × attempts + backoff, with a generous margin),
// in one line that names what stalled, and the proxy's or server's own record says what it saw.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnCli, tempConfigDir } from '../helpers/cli.js';
import { startHostileProxy, type ProxyMisbehaviour } from '../helpers/hostile/proxy.js';
import { drip, rawAnswer, startHostileServer, type HostileServer } from '../helpers/hostile/server.js';
import { envFor, errorOf, requestsFrom, trident, withServices } from './harness.js';
import { untagged } from '../../src/keys/mint/tag.js';

const started: HostileServer[] = [];
afterAll(() => Promise.all(started.map((thing) => thing.close())));
const kept = (running: HostileServer) => (started.push(running), running);
const proxy = async (misbehaviour: ProxyMisbehaviour) => kept(await startHostileProxy(misbehaviour));
const server = async (answer: Parameters<typeof startHostileServer>[0]) => kept(await startHostileServer(answer));

/** The longest a run may take: every attempt's deadline, the backoff between them, start-up; doubled. */
const bound = (timeoutS: number, retries: number) => 2 * (timeoutS * (retries + 1) + 0.25 * 2 ** retries) * 1000 + 4000;

const REMOTE_CATALOG = 'http://catalog.example.test';
const health = (url: string, ...flags: string[]) => ['catalog', 'health', '--url', url, ...flags];
const viaProxy = (url: string) => ({ HTTP_PROXY: url, HTTPS_PROXY: url });

describe.concurrent('proxies that misbehave', () => {
  it('a proxy that accepts and never answers: exit 8 naming the proxy, one CONNECT per attempt, within the bound', async () => {
    const stall = await proxy('stall');
    const run = await trident(health(REMOTE_CATALOG, '--timeout', '2', '--retries', '1'), { env: { HTTP_PROXY: stall.url } });
    expect(run.exitCode, run.stderr).toBe(8);
    const { message, hint } = errorOf(run);
    expect(message).toMatch(/^the proxy 127\.0\.0\.1:\d+ \(HTTP_PROXY\) did not open a connection to catalog\.example\.test within 2 s$/);
    expect(hint).toMatch(/NO_PROXY/);
    expect(run.ms).toBeLessThan(bound(2, 1));
    // At most one CONNECT per attempt (on a loaded machine an attempt may run out before it sends its own).
    expect(stall.requests.length).toBeGreaterThanOrEqual(1);
    expect(stall.requests.length).toBeLessThanOrEqual(2);
    expect(new Set(stall.requests)).toEqual(new Set(['CONNECT catalog.example.test:80']));
  });

  it('a proxy that reads the CONNECT and closes: exit 8 at once, no storm of CONNECTs', async () => {
    const dropper = await proxy('drop');
    // A long --timeout: the closing is noticed at once, not by the deadline.
    const run = await trident(health(REMOTE_CATALOG, '--timeout', '8', '--retries', '2'), { env: { HTTP_PROXY: dropper.url } });
    expect(run.exitCode, run.stderr).toBe(8);
    expect(errorOf(run).message).toMatch(
      /^the proxy 127\.0\.0\.1:\d+ \(HTTP_PROXY\) closed the connection instead of opening one to catalog\.example\.test$/,
    );
    expect(run.ms).toBeLessThan(bound(8, 2));
    // Three attempts; undici may connect again once or twice within an attempt before it is torn down.
    expect(dropper.connections()).toBeGreaterThanOrEqual(3);
    expect(dropper.connections()).toBeLessThanOrEqual(15);
  });

  it('keys and time through a stalled HTTPS_PROXY end too', async () => {
    const stall = await proxy('stall');
    await withServices(['keys'], async (s) => {
      const keys = await trident(['keys', 'list', '--timeout', '1', '--retries', '0'], {
        env: { ...envFor.keys(s), TRIDENT_KEYS_URL: 'https://keys.example.test/trade-api/v2', HTTPS_PROXY: stall.url },
      });
      expect(keys.exitCode, keys.stderr).toBe(8);
      expect(errorOf(keys).message).toMatch(/^the proxy .* \(HTTPS_PROXY\) did not open a connection to keys\.example\.test within 1 s$/);
      expect(keys.ms).toBeLessThan(bound(1, 0));
      expect(s.keys.server.requests).toEqual([]);
    });
    const time = await trident(['time', 'projects', '--timeout', '1', '--retries', '0'], {
      env: { TRIDENT_TIME_URL: 'https://time.example.test/api/v1', TRIDENT_TIME_TOKEN: 'tok', HTTPS_PROXY: stall.url },
    });
    expect(time.exitCode, time.stderr).toBe(8);
    expect(errorOf(time).message).toMatch(/did not open a connection to time\.example\.test within 1 s$/);
    expect(time.ms).toBeLessThan(bound(1, 0));
    expect(stall.requests).toEqual(['CONNECT keys.example.test:443', 'CONNECT time.example.test:443']);
  });

  it('a 407 from the proxy: exit 4, the proxy refused the credentials, not repeated', async () => {
    const auth = await proxy('auth');
    const run = await trident(health(REMOTE_CATALOG, '--retries', '3'), { env: { HTTP_PROXY: auth.url.replace('//', '//me:wrong@') } });
    expect(run.exitCode, run.stderr).toBe(4);
    const { message, hint } = errorOf(run);
    expect(message).toMatch(/^the proxy 127\.0\.0\.1:\d+ \(HTTP_PROXY\) refused the credentials \(407 Proxy Authentication Required\)$/);
    expect(hint).toMatch(/user:password in HTTP_PROXY/);
    expect(run.stderr).not.toContain('wrong');
    expect(auth.requests).toHaveLength(1);
  });

  it('a proxy that will not open the tunnel (502): exit 8 naming the proxy and its answer', async () => {
    const refuse = await proxy('refuse');
    const run = await trident(health(REMOTE_CATALOG, '--retries', '0'), { env: { HTTP_PROXY: refuse.url } });
    expect(run.exitCode, run.stderr).toBe(8);
    expect(errorOf(run).message).toMatch(
      /^the proxy 127\.0\.0\.1:\d+ \(HTTP_PROXY\) would not open a connection to catalog\.example\.test: it answered 502$/,
    );
    expect(refuse.requests).toHaveLength(1);
  });

  it.each([
    ['HTTP_PROXY', 'proxy.corp:3128'],
    ['HTTPS_PROXY', 'http://me:s3cret@[not-a-host'],
    ['https_proxy', '::::'],
  ])('a malformed %s (%s) is exit 2 with a message, the password left out', async (variable, value) => {
    const run = await trident(health('https://catalog.example.test'), { env: { [variable]: value } });
    expect(run.exitCode, run.stderr).toBe(2);
    const { message, hint } = errorOf(run);
    expect(message).toMatch(new RegExp(`^invalid ${variable} ".*": not a proxy URL$`));
    expect(hint).toMatch(/http:\/\/host:port/);
    expect(run.stderr).not.toContain('s3cret');
  });
});

describe.concurrent('loopback never goes through a proxy, whatever NO_PROXY says', () => {
  it('keys (signed requests, a minted private key), time and catalog on 127.0.0.1 go direct', async () => {
    const stall = await proxy('stall');
    const env = { ...viaProxy(stall.url), NO_PROXY: 'elsewhere.example' };
    const catalog = await server(
      ({ socket }) =>
        void socket.end(rawAnswer('200 OK', { 'Content-Type': 'application/json', 'Content-Length': '15' }, '{"status":"ok"}')),
    );
    await withServices(['keys', 'time'], async (s) => {
      const runs = await Promise.all([
        trident(['keys', 'generate', '--name', 'direct'], { env: { ...envFor.keys(s), ...env } }),
        trident(['time', 'projects'], { env: { ...envFor.time(s), ...env } }),
        trident(health(catalog.url), { env }),
      ]);
      for (const run of runs) expect(run.exitCode, run.stderr).toBe(0);
      expect(s.keys.control.listKeys().filter((key) => untagged(key.name) === 'direct')).toHaveLength(1);
    });
    expect(catalog.requests).toEqual(['GET /healthz']);
    expect(stall.connections()).toBe(0);
  });
});

describe.concurrent('servers that never finish', () => {
  it('a body of 100000 bytes dripping one byte a second: exit 8 within the deadline, naming how far it got', async () => {
    const dripping = await server(({ socket }) => drip(socket, 100_000, 1000));
    const run = await trident(health(dripping.url, '--timeout', '2', '--retries', '1'));
    expect(run.exitCode, run.stderr).toBe(8);
    expect(errorOf(run).message).toMatch(/^no answer from 127\.0\.0\.1:\d+ in time \(reading the answer: \d of 100000 bytes in 2 s\)$/);
    expect(run.ms).toBeLessThan(bound(2, 1));
    expect(dripping.count('GET')).toBe(2);
  });

  it('a server that accepts and never answers: exit 8 after every attempt, each bounded', async () => {
    const silent = await server(() => undefined);
    const run = await trident(health(silent.url, '--timeout', '1', '--retries', '2'));
    expect(run.exitCode, run.stderr).toBe(8);
    expect(errorOf(run).message).toMatch(/^no answer from 127\.0\.0\.1:\d+ in time \(waiting for the answer\)$/);
    expect(run.ms).toBeLessThan(bound(1, 2));
    expect(silent.count('GET')).toBe(3);
  });

  it('time (TLS): a dripping answer to the project list ends in the deadline', async () => {
    await withServices(['time'], async (s) => {
      s.time.server.faults.add({ method: 'GET', path: '/api/v1/projects', fault: { kind: 'drip', bytes: 50_000, everyMs: 500 } });
      const sent = requestsFrom(s.time.server);
      const run = await trident(['time', 'projects', '--timeout', '2', '--retries', '0'], { env: envFor.time(s) });
      expect(run.exitCode, run.stderr).toBe(8);
      expect(errorOf(run).message).toMatch(/in time \(reading the answer: \d+ of 50000 bytes in 2 s\)$/);
      expect(run.ms).toBeLessThan(bound(2, 0));
      expect(sent()).toEqual(['GET /api/v1/projects']);
    });
  });

  it('an interrupt held back while a key is made waits no longer than the deadline; no key is left without its private half', async () => {
    await withServices(['keys'], async (s) => {
      s.keys.server.faults.add({
        method: 'POST',
        path: /\/generate$/,
        fault: { kind: 'drip', bytes: 100_000, everyMs: 1000, afterProcessing: true },
      });
      const configDir = tempConfigDir();
      const started = performance.now();
      // --timeout 5: the sandbox mints an RSA key before it drips, which takes seconds on a loaded machine; a
      // check run while it still mints would miss the key.
      const child = spawnCli(['keys', 'generate', '--name', 'held', '--timeout', '5', '--retries', '0'], {
        configDir,
        env: envFor.keys(s),
      });
      await s.keys.server.faults.next();
      child.kill('SIGINT');
      const result = await child;
      const ms = performance.now() - started;
      expect([8, 130], String(result.stderr)).toContain(result.exitCode);
      expect(ms).toBeLessThan(bound(5, 0));
      const sent = s.keys.server.requests.map((request) => request.method);
      expect(sent.filter((method) => method === 'POST')).toHaveLength(1);
      for (const key of s.keys.control.listKeys().filter((k) => untagged(k.name) === 'held')) {
        expect(existsSync(join(configDir, 'keys', `${key.api_key}.pem`)), `key ${key.api_key} has its private half`).toBe(true);
      }
    });
  });
});

describe.concurrent('local inputs of the HTTP core', () => {
  it('/dev/zero as the CA file: exit 2 at once', async () => {
    const run = await trident(health('https://127.0.0.1:9', '--ca-file', '/dev/zero'));
    expect(run.exitCode, run.stderr).toBe(2);
    expect(errorOf(run).message).toBe('CA file /dev/zero is larger than 1 MiB: not read');
    expect(run.ms).toBeLessThan(8000);
  });

  it('a user:password in a service URL is refused (exit 2), never dropped silently, never printed', async () => {
    const listening = await server(({ socket }) => void socket.end(rawAnswer('200 OK', { 'Content-Length': '2' }, '{}')));
    const withPassword = listening.url.replace('//', '//me:s3cret@');
    const run = await trident(health(withPassword, '--debug'));
    expect(run.exitCode, run.stderr).toBe(2);
    // --debug adds no stack to a usage error.
    expect(run.stderr.split('\n')[0]).toMatch(
      /^trident: invalid --url "http:\/\/me:\[redacted\]@127\.0\.0\.1:\d+": a user name or password in the URL is not sent to the service$/,
    );
    expect(run.stderr).not.toContain('s3cret');
    expect(listening.requests).toEqual([]);
  });
});
