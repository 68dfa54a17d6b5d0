// Proxies that misbehave, on loopback, each keeping its own record: how many connections it took and which
// requests it read ("CONNECT host:port"). `stall` accepts and never answers; `drop` reads the CONNECT and
// closes; `auth` answers 407 to everything; `refuse` answers 502 (an upstream it cannot reach).
import { rawAnswer, startHostileServer, type HostileServer } from './server.js';

export type ProxyMisbehaviour = 'stall' | 'drop' | 'auth' | 'refuse';

export function startHostileProxy(misbehaviour: ProxyMisbehaviour): Promise<HostileServer> {
  return startHostileServer(({ socket }) => {
    if (misbehaviour === 'drop') socket.destroy();
    else if (misbehaviour === 'auth')
      socket.end(rawAnswer('407 Proxy Authentication Required', { 'Proxy-Authenticate': 'Basic realm="x"', 'Content-Length': '0' }));
    else if (misbehaviour === 'refuse') socket.end(rawAnswer('502 Bad Gateway', { 'Content-Length': '0' }));
  });
}
