// Which transport carries a request, on real loopback sockets: Node's http for a direct request (no undici
// loaded, keep-alive, one connection for requests in a row, a connection each for requests at once); undici
// only through a proxy (test/e2e/proxy.test.ts). These check what only the transport decides.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpClient, openHttpClient, type HttpClient } from '../../../src/core/http/client.js';
import { drip, rawAnswer, startHostileServer, type HostileServer } from '../../helpers/hostile/server.js';

let server: HostileServer | undefined;
let client: HttpClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
  client = server = undefined;
});

const ok = (body: string) =>
  rawAnswer('200 OK', { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) }, body);

describe('a direct request (no proxy, no pipelining)', () => {
  it('goes over node:http without undici, and requests in a row share one keep-alive connection', async () => {
    server = await startHostileServer(({ socket, requestLine }) => void socket.write(ok(JSON.stringify({ line: requestLine }))));
    // No `undici` given: a client that needed it would throw "open the HTTP client with openHttpClient()".
    client = createHttpClient({ serviceName: 'test service', retries: 0, timeoutMs: 5000 });
    const first = await client.request({ method: 'GET', url: `${server.url}/a?x=1` });
    const second = await client.request({ method: 'POST', url: `${server.url}/b`, body: '{"n":1}' });
    expect(first.json()).toEqual({ line: 'GET /a?x=1 HTTP/1.1' });
    expect(second.json()).toEqual({ line: 'POST /b HTTP/1.1' });
    expect(server.requests).toEqual(['GET /a?x=1', 'POST /b']);
    expect(server.connections()).toBe(1);
  });

  it('sends a body with its length, and a POST without one with Content-Length: 0, never chunked', async () => {
    const seen: Array<Record<string, string | string[] | undefined>> = [];
    const http = createServer((request, response) => {
      seen.push(request.headers);
      request.resume().on('end', () => response.end('{}'));
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    client = createHttpClient({ serviceName: 'test service', retries: 0, timeoutMs: 5000 });
    try {
      await client.request({ method: 'POST', url: `${url}/with`, body: '{"name":"ключ"}' });
      await client.request({ method: 'POST', url: `${url}/without` });
      await client.request({ method: 'DELETE', url: `${url}/k/1` });
    } finally {
      await client.close();
      await new Promise((resolve) => http.close(resolve));
    }
    expect(seen.map((headers) => [headers['content-length'], headers['transfer-encoding']])).toEqual([
      ['19', undefined],
      ['0', undefined],
      [undefined, undefined],
    ]);
  });

  it('reaches a service on IPv6 loopback ([::1] in the URL)', async () => {
    const http = createServer((request, response) => response.end(JSON.stringify({ host: request.headers.host })));
    await new Promise<void>((resolve) => http.listen(0, '::1', resolve));
    const port = (http.address() as AddressInfo).port;
    client = createHttpClient({ serviceName: 'test service', retries: 0, timeoutMs: 5000 });
    try {
      expect((await client.request({ method: 'GET', url: `http://[::1]:${port}/x` })).json()).toEqual({ host: `[::1]:${port}` });
    } finally {
      await client.close();
      await new Promise((resolve) => http.close(resolve));
    }
  });

  it('refuses a header value Node cannot send: exit 2, nothing reaches the service', async () => {
    server = await startHostileServer(({ socket }) => void socket.write(ok('{}')));
    client = createHttpClient({ serviceName: 'test service', retries: 2, timeoutMs: 5000 });
    await expect(
      client.request({ method: 'GET', url: `${server.url}/a`, headers: { 'x-token': 'a\r\nInjected: yes' } }),
    ).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringMatching(/^cannot send a request to 127\.0\.0\.1:\d+: /),
      hint: expect.stringContaining('characters a request cannot carry'),
    });
    expect(server.connections()).toBe(0);
  });

  it('holds the process with no connection once its requests are answered and it is closed', async () => {
    // The service in a child process, so that every TCP socket of this process is the client's.
    const service = spawn(
      process.execPath,
      [
        '-e',
        `require('node:http').createServer((q, a) => a.end('{}')).listen(0, '127.0.0.1', function () { console.log(this.address().port) })`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      const [port] = (await once(service.stdout!, 'data')) as [Buffer];
      const tcp = () => process.getActiveResourcesInfo().filter((name) => name === 'TCPSocketWrap').length;
      const before = tcp();
      client = createHttpClient({ serviceName: 'test service', retries: 0, timeoutMs: 5000 });
      const answered = client.request({ method: 'GET', url: `http://127.0.0.1:${String(port).trim()}/a` });
      expect(tcp()).toBe(before + 1);
      await answered;
      await client.close();
      client = undefined;
      expect(tcp()).toBe(before);
    } finally {
      service.kill();
    }
  });
});

describe('the deadline of a direct request', () => {
  it.each([
    ['connected, no answer', (socket: Socket) => void socket.write('')],
    ['in a body that drips', (socket: Socket) => void drip(socket, 1000, 50)],
  ])('ends the connection itself when it passes (%s), before the client is closed', async (_stage, answer) => {
    let ended: Promise<void> | undefined;
    server = await startHostileServer(({ socket }) => {
      ended = new Promise((resolve) => socket.once('close', () => resolve()));
      answer(socket);
    });
    client = createHttpClient({ serviceName: 'test service', retries: 0, timeoutMs: 300 });
    await expect(client.request({ method: 'GET', url: `${server.url}/slow` })).rejects.toMatchObject({
      exitCode: 8,
      message: expect.stringMatching(/in time/),
    });
    const closed = await Promise.race([ended, new Promise((resolve) => setTimeout(() => resolve('still open'), 2000))]);
    expect(closed).toBeUndefined();
  });
});

describe('requests at once (catalog --all asks for the next pages while one is read)', () => {
  it('each waiting request has a connection of its own, and the next ones reuse them', async () => {
    server = await startHostileServer(
      ({ socket, requestLine }) => void setTimeout(() => socket.write(ok(JSON.stringify({ line: requestLine }))), 50),
    );
    client = await openHttpClient({ serviceName: 'test service', retries: 0, timeoutMs: 5000, env: {} });
    const round = (paths: string[]) => Promise.all(paths.map((path) => client!.request({ method: 'GET', url: `${server!.url}${path}` })));
    const answers = await round(['/1', '/2', '/3']);
    expect(answers.map((answer) => answer.json())).toEqual([
      { line: 'GET /1 HTTP/1.1' },
      { line: 'GET /2 HTTP/1.1' },
      { line: 'GET /3 HTTP/1.1' },
    ]);
    expect(server.connections()).toBe(3);
    await round(['/4', '/5', '/6']);
    expect(server.connections()).toBe(3);
  });
});
