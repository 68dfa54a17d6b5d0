// Proxies that misbehave, on loopback, each keeping its own record: how many connections it took and which
// CONNECT lines it read. `stall` accepts and never answers; `drop` reads the CONNECT and closes;
// `auth` answers 407 to everything; `refuse` answers 502 (an upstream it cannot reach).
import { createServer, type Socket } from 'node:net';

export type ProxyMisbehaviour = 'stall' | 'drop' | 'auth' | 'refuse';

export interface HostileProxy {
  url: string;
  /** TCP connections accepted. */
  connections(): number;
  /** The request lines read ("CONNECT host:port HTTP/1.1"). */
  requests: string[];
  close(): Promise<void>;
}

export async function startHostileProxy(misbehaviour: ProxyMisbehaviour): Promise<HostileProxy> {
  const sockets = new Set<Socket>();
  const requests: string[] = [];
  let connections = 0;
  const server = createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let head = '';
    socket.on('data', (chunk) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      requests.push(head.split('\r\n')[0]!);
      head = '';
      if (misbehaviour === 'drop') socket.destroy();
      else if (misbehaviour === 'auth') socket.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="x"\r\nContent-Length: 0\r\n\r\n');
      else if (misbehaviour === 'refuse') socket.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    connections: () => connections,
    requests,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
