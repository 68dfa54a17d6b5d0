// Requests that go straight to the service (no proxy) travel over Node's own http/https with a
// keep-alive agent: loading undici would more than double the work of a short command (docs/build.md). The core's rules do not depend on the transport: the attempt's deadline (attempt-deadline.ts) still
// bounds connect, TLS, headers and body, a 3xx is still not followed (Node never follows one), and the errors
// below keep the words failures.ts knows from undici for answers that break HTTP.
import type { Agent, ClientRequest, IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { ConnectionWatch } from './connection-watch.js';
import type { Transport, TransportRequest, TransportResponse } from './transport.js';

/** Errors named as undici names them, so that failures.ts words them the same whatever carried the request. */
const brokenHttp = (what: 'bad upgrade' | 'bad response'): Error => Object.assign(new Error(what), { code: 'TRIDENT_BROKEN_HTTP' });

/** Node says "socket hang up" (no answer yet) and "aborted" (in the body) for a connection the service closed. */
function closedByService(error: NodeJS.ErrnoException): NodeJS.ErrnoException {
  if (error.code !== 'ECONNRESET' || (error.message !== 'socket hang up' && error.message !== 'aborted')) return error;
  return Object.assign(new Error('other side closed'), { code: 'ECONNRESET' });
}

/** Methods whose requests carry no body, and so no Content-Length, when they have none. */
const BODILESS = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS']);

/** node:https for https: URLs (loading node:tls only then), node:http for the rest. */
const httpModule = (protocol: string) =>
  process.getBuiltinModule(protocol === 'https:' ? 'node:https' : 'node:http') as typeof import('node:https');

export function nodeTransport(ca: string[] | undefined, watch: ConnectionWatch): Transport {
  const agents = new Map<string, Agent>();
  const agentFor = (protocol: string): Agent => {
    let agent = agents.get(protocol);
    if (!agent) {
      agent = new (httpModule(protocol).Agent)({ keepAlive: true, ...(protocol === 'https:' && ca ? { ca } : {}) });
      agents.set(protocol, agent);
    }
    return agent;
  };
  const watched = new WeakSet<Socket>();
  // A command closes its client once every request is answered, so what is left are idle keep-alive sockets. Node's
  // agent has unref'd them: they hold nothing, and end with the process (or when the service ends them first).
  // They are not destroyed: Node's net makes process.stderr (for a pipe, a socket of its own) in every socket's
  // destroy, which a quiet command never needs. A socket still in use is ended.
  const endBusy = async (): Promise<void> => {
    for (const agent of agents.values())
      for (const sockets of Object.values(agent.sockets)) for (const socket of sockets ?? []) socket.destroy();
  };
  const endAll = async (): Promise<void> => {
    for (const agent of agents.values()) agent.destroy();
  };

  return {
    request: (request) =>
      send(request, agentFor, (socket, origin) => {
        if (watched.has(socket)) return;
        watched.add(socket);
        socket.once((socket as TLSSocket).encrypted ? 'secureConnect' : 'connect', () => {
          watch.opened(origin);
          socket.once('close', () => watch.closed(origin));
        });
      }),
    close: endBusy,
    destroy: endAll,
  };
}

function send(
  request: TransportRequest,
  agentFor: (protocol: string) => Agent,
  onSocket: (socket: Socket, origin: string) => void,
): Promise<TransportResponse> {
  return new Promise((resolve, reject) => {
    const url = new URL(request.path, request.origin);
    const { request: start } = httpModule(url.protocol);
    // A length, never chunked encoding (which Node would use for a POST): gateways refuse a chunked POST more often.
    const length = request.body !== undefined ? Buffer.byteLength(request.body) : BODILESS.has(request.method) ? undefined : 0;
    const headers = length === undefined ? request.headers : { ...request.headers, 'content-length': String(length) };
    let req: ClientRequest;
    try {
      req = start(url, { method: request.method, headers, agent: agentFor(url.protocol) });
    } catch (error) {
      // A header value or path Node will not send (a control character): nothing was sent.
      reject(error as Error);
      return;
    }
    // The deadline ends the request wherever it is (connecting, waiting, in the body), as `signal` in the options
    // would, without the stream machinery Node's http loads to tie a signal to a request.
    request.onDeadline((error) => req.destroy(error));
    let informational = false;
    /** An error of the request after its answer began (broken chunking): the body's own error only says "aborted". */
    let lateError: Error | undefined;
    req.on('socket', (socket) => onSocket(socket, request.origin));
    req.on('information', () => {
      informational = true;
    });
    req.on('upgrade', (_response, socket) => {
      socket.destroy();
      reject(brokenHttp('bad upgrade'));
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      lateError = error;
      reject(informational && error.code === 'ECONNRESET' ? brokenHttp('bad response') : closedByService(error));
    });
    req.on('response', (response: IncomingMessage) => {
      resolve({
        statusCode: response.statusCode ?? 0,
        headers: response.headers,
        body: {
          async *[Symbol.asyncIterator]() {
            try {
              yield* response as AsyncIterable<Buffer>;
            } catch (error) {
              throw closedByService((lateError ?? error) as NodeJS.ErrnoException);
            }
          },
          destroy: () => response.destroy(),
        },
      });
    });
    req.end(request.body);
  });
}
