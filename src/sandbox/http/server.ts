// The HTTP plumbing shared by the three sandbox services: listening on loopback (HTTP or HTTPS), reading
// bodies, recording every request, and injecting faults on demand. Services only map a request to a response.
import {
  createServer as createHttpServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Socket } from 'node:net';
import { jsonText } from '../../core/json/big-integers.js';
import { FaultInjector, type Fault } from './faults.js';

export interface SandboxRequest {
  method: string;
  /** Full request URL (origin is the server's own). */
  url: URL;
  /** URL path without the query string, percent-decoding left to the service. */
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface SandboxResponse {
  status: number;
  headers?: Record<string, string>;
  /** A string or Buffer is sent as is; anything else is sent as JSON. Undefined sends no body. */
  body?: unknown;
}

export type Handler = (req: SandboxRequest) => SandboxResponse | Promise<SandboxResponse>;

export interface RecordedRequest {
  method: string;
  path: string;
  query: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface StartOptions {
  host?: string;
  port?: number;
  tls?: { key: string; cert: string };
  handler: Handler;
  /** Largest request body accepted; larger ones get 413. */
  maxBodyBytes?: number;
}

export interface RunningServer {
  host: string;
  port: number;
  /** `http://127.0.0.1:1234` or `https://...`, without a trailing slash. */
  origin: string;
  /** Every request received, in order (bodies as UTF-8 text). */
  requests: RecordedRequest[];
  /** Connections accepted so far: also counts clients whose request was refused unread (a 431 for huge headers). */
  readonly connections: number;
  faults: FaultInjector;
  /**
   * Resolves once no request is being handled, a delayed one included (a fault that acts late): what the
   * service will ever do for the requests received so far is done.
   */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export function json(status: number, body: unknown, headers?: Record<string, string>): SandboxResponse {
  return { status, body, headers };
}

export async function startServer(options: StartOptions): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const maxBody = options.maxBodyBytes ?? 1024 * 1024;
  const requests: RecordedRequest[] = [];
  const faults = new FaultInjector();
  const sockets = new Set<Socket>();
  let inFlight = 0;
  let idleWaiters: Array<() => void> = [];

  const listener = (req: IncomingMessage, res: ServerResponse) => {
    inFlight += 1;
    handle(req, res)
      .catch((error: unknown) => {
        if (!res.headersSent) {
          send(res, { status: 500, body: { detail: `sandbox error: ${(error as Error).message}` } });
        } else {
          res.destroy();
        }
      })
      .finally(() => {
        inFlight -= 1;
        if (inFlight > 0) return;
        const waiters = idleWaiters;
        idleWaiters = [];
        for (const waiter of waiters) waiter();
      });
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    const body = await readBody(req, maxBody);
    if (body === undefined) {
      send(res, { status: 413, body: { detail: 'request body too large' } });
      return;
    }
    const method = req.method ?? 'GET';
    requests.push({ method, path: url.pathname, query: url.search, headers: req.headers, body: body.toString('utf8'), at: Date.now() });

    const fault = faults.take(method, url.pathname);
    if (fault?.kind === 'delay' && !fault.afterProcessing) {
      faults.notify(fault);
      await new Promise((resolve) => setTimeout(resolve, fault.ms));
    } else if (fault && !fault.afterProcessing) {
      await applyFault(faults, fault, req, res);
      return;
    }
    const response = await options.handler({ method, url, path: url.pathname, headers: req.headers, body });
    if (fault?.afterProcessing) {
      await applyFault(faults, fault, req, res, response);
      return;
    }
    send(res, response);
  }

  const server: Server = options.tls
    ? createHttpsServer({ key: options.tls.key, cert: options.tls.cert }, listener)
    : createHttpServer(listener);
  server.keepAliveTimeout = 5000;
  let connections = 0;
  server.on('connection', (socket: Socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  const origin = `${options.tls ? 'https' : 'http'}://${urlHost}:${port}`;

  return {
    host,
    port,
    origin,
    requests,
    faults,
    get connections() {
      return connections;
    },
    idle: () => (inFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => idleWaiters.push(resolve))),
    close: () =>
      new Promise<void>((resolve) => {
        faults.clear();
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The request's body, or undefined when it is larger than `maxBody`. */
async function readBody(req: IncomingMessage, maxBody: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBody) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Answers as the fault says instead of (or, after processing, on top of) the service's answer. */
async function applyFault(
  faults: FaultInjector,
  fault: Fault,
  req: IncomingMessage,
  res: ServerResponse,
  processed?: SandboxResponse,
): Promise<void> {
  faults.notify(fault);
  switch (fault.kind) {
    case 'status':
      send(res, {
        status: fault.status,
        headers: fault.headers,
        body: fault.body ?? { error: { code: 'injected', message: `injected ${fault.status}` } },
      });
      return;
    case 'reset':
      req.socket.destroy();
      return;
    case 'hang':
      faults.hold(req.socket);
      return;
    case 'truncate': {
      const full = encode(processed ?? { status: 200, body: { items: [{ filler: 'x'.repeat(256) }] } });
      res.writeHead(full.status, { ...full.headers, 'content-length': String(full.payload.length) });
      res.write(full.payload.subarray(0, Math.floor(full.payload.length / 2)));
      setTimeout(() => req.socket.destroy(), 20);
      return;
    }
    case 'body':
      res.writeHead(fault.status ?? 200, { 'content-type': fault.contentType ?? 'application/json' });
      res.end(fault.payload);
      return;
    case 'delay':
      // Only after processing (see the listener for a delay before it).
      await new Promise((resolve) => setTimeout(resolve, fault.ms));
      if (!res.destroyed && processed) send(res, processed);
      return;
    case 'drip': {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(fault.bytes) });
      faults.hold(req.socket);
      for (let left = fault.bytes; left > 0 && !res.destroyed; left -= 1) {
        res.write(' ');
        await new Promise((resolve) => setTimeout(resolve, fault.everyMs));
      }
      return;
    }
    case 'huge': {
      res.writeHead(200, { 'content-type': 'application/json' });
      const block = Buffer.alloc(64 * 1024, 0x20);
      let left = fault.bytes;
      res.write('{"padding":"');
      while (left > 0 && !res.destroyed) {
        const piece = left >= block.length ? block : block.subarray(0, left);
        left -= piece.length;
        if (!res.write(piece)) await new Promise((resolve) => res.once('drain', resolve));
      }
      res.end('"}');
      return;
    }
  }
}

function encode(response: SandboxResponse): { status: number; headers: Record<string, string>; payload: Buffer } {
  const headers: Record<string, string> = { ...response.headers };
  let payload: Buffer;
  if (response.body === undefined) {
    payload = Buffer.alloc(0);
  } else if (typeof response.body === 'string' || Buffer.isBuffer(response.body)) {
    payload = Buffer.from(response.body);
    headers['content-type'] ??= 'text/plain; charset=utf-8';
  } else {
    payload = Buffer.from(jsonText(response.body));
    headers['content-type'] ??= 'application/json';
  }
  return { status: response.status, headers, payload };
}

function send(res: ServerResponse, response: SandboxResponse): void {
  const { status, headers, payload } = encode(response);
  res.writeHead(status, { ...headers, 'content-length': String(payload.length) });
  res.end(payload);
}
