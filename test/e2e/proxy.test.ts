// HTTPS_PROXY / HTTP_PROXY / NO_PROXY, as curl and most CLIs read them: a real proxy on loopback that
// tunnels (CONNECT) or forwards (absolute-form requests) and records what went through it. Loopback never
// goes through a proxy, so the services are addressed as proxied.test, which only this proxy knows: it takes
// that name to 127.0.0.1 (the sandbox certificate names it too).
import { once } from 'node:events';
import { createServer, request, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CatalogSandbox } from '../../src/sandbox/catalog/server.js';
import { runCli } from '../helpers/cli.js';
import { smallCatalog, startSandbox } from '../helpers/catalog-fixtures.js';
import { useTimeSandbox } from '../helpers/time-sandbox.js';

const time = useTimeSandbox();
let sandbox: CatalogSandbox;
let proxy: Server;
let proxyUrl: string;
const seen: string[] = [];
const PROXIED = 'proxied.test';

/** The sandbox's URL with a host name that is not loopback: reachable only through the proxy. */
function viaProxy(url: string): string {
  const named = new URL(url);
  named.hostname = PROXIED;
  return named.href.replace(/\/$/, '');
}
const toLoopback = (host: string) => (host === PROXIED ? '127.0.0.1' : host);

function startProxy(): Server {
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const target = new URL(req.url!);
    target.hostname = toLoopback(target.hostname);
    const upstream = request(target, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connect', (req, client, head) => {
    seen.push(`CONNECT ${req.url}`);
    const [host, port] = req.url!.split(':');
    const target = connect(Number(port), toLoopback(host!), () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      target.write(head);
      target.pipe(client);
      client.pipe(target);
    });
    target.on('error', () => client.destroy());
    client.on('error', () => target.destroy());
  });
  return server;
}

beforeAll(async () => {
  sandbox = await startSandbox(smallCatalog());
  proxy = startProxy();
  proxy.listen(0, '127.0.0.1');
  await once(proxy, 'listening');
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise((resolve) => proxy.close(resolve));
  await sandbox.close();
});
beforeEach(() => {
  seen.length = 0;
});

const count = (env: Record<string, string>) =>
  runCli(['catalog', 'count', '-o', 'json'], { env: { TRIDENT_CATALOG_URL: viaProxy(sandbox.url), ...env } });
const sandboxHost = () => new URL(viaProxy(sandbox.url)).host;

describe('proxies from the environment', () => {
  it('sends requests through HTTP_PROXY', async () => {
    const result = await count({ HTTP_PROXY: proxyUrl });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toMatchObject({ products_count: 2 });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatch(new RegExp(`^(CONNECT ${sandboxHost()}|GET ${viaProxy(sandbox.url)}/products/count)$`));
  });

  it('reads the lower-case spelling too', async () => {
    const result = await count({ http_proxy: proxyUrl });
    expect(result.exitCode).toBe(0);
    expect(seen).toHaveLength(1);
  });

  it('goes direct to hosts NO_PROXY names (proxied.test is then a name nobody resolves)', async () => {
    const result = await count({ HTTP_PROXY: proxyUrl, NO_PROXY: PROXIED });
    expect(result.exitCode).toBe(8);
    expect(result.stderr.split('\n')[0]).toBe(`trident: cannot resolve ${PROXIED}`);
    expect(seen).toEqual([]);
  });

  it('never sends a loopback request through the proxy, whatever NO_PROXY says', async () => {
    const result = await runCli(['catalog', 'count', '-o', 'json'], {
      env: { TRIDENT_CATALOG_URL: sandbox.url, HTTP_PROXY: proxyUrl, NO_PROXY: 'elsewhere.test' },
    });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ products_count: 2 });
    expect(seen).toEqual([]);
  });

  it('goes direct without a proxy variable', async () => {
    expect((await runCli(['catalog', 'count'], { env: { TRIDENT_CATALOG_URL: sandbox.url } })).exitCode).toBe(0);
    expect(seen).toEqual([]);
  });

  it('a proxy that is not there is named as the failure (exit 8), without its password', async () => {
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const result = await runCli(['catalog', 'count', '--retries', '0'], {
      env: { TRIDENT_CATALOG_URL: viaProxy(sandbox.url), HTTP_PROXY: `http://user:s3cret@127.0.0.1:${port}` },
    });
    expect(result.exitCode).toBe(8);
    expect(result.stderr).toBe(
      `trident: cannot reach the proxy 127.0.0.1:${port} (HTTP_PROXY): connection refused\nhint: check HTTP_PROXY, or list ${PROXIED} in NO_PROXY to go direct\n`,
    );
    expect(result.stdout).toBe('');

    // HTTPS with only HTTP_PROXY set goes through HTTP_PROXY (as curl and undici do): that proxy is named.
    const https = await runCli(['time', 'projects', '--retries', '0'], {
      env: { ...time.tokenEnv(), TRIDENT_TIME_URL: viaProxy(time.sandbox.url), HTTP_PROXY: `http://127.0.0.1:${port}` },
    });
    expect(https.exitCode).toBe(8);
    expect(https.stderr.split('\n')[0]).toBe(`trident: cannot reach the proxy 127.0.0.1:${port} (HTTP_PROXY): connection refused`);

    // Going direct (NO_PROXY) to a service that is down: the service is named, not the proxy.
    const direct = await runCli(['catalog', 'count', '--retries', '0'], {
      env: { TRIDENT_CATALOG_URL: `http://127.0.0.1:${port}`, HTTP_PROXY: proxyUrl, NO_PROXY: '127.0.0.1' },
    });
    expect(direct.stderr.split('\n')[0]).toBe(`trident: cannot connect to 127.0.0.1:${port}: connection refused`);
  });

  it('tunnels HTTPS through HTTPS_PROXY: the proxy sees only CONNECT, TLS is end to end', async () => {
    const result = await runCli(['time', 'projects', '-o', 'json'], {
      env: { ...time.tokenEnv(), TRIDENT_TIME_URL: viaProxy(time.sandbox.url), HTTPS_PROXY: proxyUrl },
    });
    expect(result.stderr).toBe('');
    expect(Array.isArray(JSON.parse(result.stdout))).toBe(true);
    expect(seen).toEqual([`CONNECT ${new URL(viaProxy(time.sandbox.url)).host}`]);
  });
});
