// A service that misbehaves at the level of bytes (what node:http would refuse to send): each connection
// gets the raw answer `answer` writes, after the request head was read. It records every request line,
// so a case can count what was sent per verb.
import { createServer, type Socket } from 'node:net';

export interface RawExchange {
  /** "GET /healthz HTTP/1.1" */
  requestLine: string;
  socket: Socket;
}

export interface HostileServer {
  url: string;
  /** "METHOD /path" of every request read ("CONNECT host:port" for a proxy). */
  requests: string[];
  /** TCP connections accepted. */
  connections(): number;
  count(method: string): number;
  close(): Promise<void>;
}

export async function startHostileServer(answer: (exchange: RawExchange) => void | Promise<void>): Promise<HostileServer> {
  const sockets = new Set<Socket>();
  const requests: string[] = [];
  let connections = 0;
  const server = createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let head = '';
    // Requests without a body (GET, CONNECT), possibly several in one chunk (pipelining).
    socket.on('data', (chunk) => {
      head += chunk.toString('latin1');
      for (let end = head.indexOf('\r\n\r\n'); end >= 0; end = head.indexOf('\r\n\r\n')) {
        const requestLine = head.split('\r\n')[0]!;
        head = head.slice(end + 4);
        requests.push(requestLine.split(' ').slice(0, 2).join(' '));
        void answer({ requestLine, socket });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    connections: () => connections,
    count: (method) => requests.filter((request) => request.startsWith(`${method} `)).length,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A raw HTTP/1.1 answer: status line, headers as given (nothing added), body. */
export function rawAnswer(status: string, headers: Record<string, string>, body = ''): string {
  return `HTTP/1.1 ${status}\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n${body}`;
}

/** Headers with a Content-Length of `bytes`, then one byte every `everyMs` for as long as the socket lives. */
export async function drip(socket: Socket, bytes: number, everyMs: number): Promise<void> {
  socket.write(rawAnswer('200 OK', { 'Content-Type': 'application/json', 'Content-Length': String(bytes) }));
  for (let left = bytes; left > 0 && !socket.destroyed; left -= 1) {
    socket.write(' ');
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
