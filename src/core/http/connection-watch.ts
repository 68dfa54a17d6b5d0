// What the connections of one route do, seen from the HTTP core: whether an origin has a connection open (so a
// deadline can tell "connecting" from "waiting for the answer"), and every failed connection attempt.
// undici 7 keeps a request queued when a connection fails with a socket error (a proxy that reads the
// CONNECT and closes), and connects again at once, for ever: a failure reported here ends the attempt.
// The transports report to it (undici-transport.ts from its pools' events, node-transport.ts from its sockets).

type Listener = (error: Error) => void;

export class ConnectionWatch {
  private readonly open = new Map<string, number>();
  private readonly listeners = new Map<string, Set<Listener>>();

  isConnected(origin: string): boolean {
    return (this.open.get(origin) ?? 0) > 0;
  }

  /** Calls `listener` on every failed connection attempt to `origin` until the returned function is called. */
  onConnectionError(origin: string, listener: Listener): () => void {
    const set = this.listeners.get(origin) ?? new Set<Listener>();
    this.listeners.set(origin, set.add(listener));
    return () => set.delete(listener);
  }

  opened(at: URL | string): void {
    this.count(at, +1);
  }

  closed(at: URL | string): void {
    this.count(at, -1);
  }

  failed(at: URL | string, error: Error): void {
    for (const listener of this.listeners.get(originOf(at)) ?? []) listener(error);
  }

  private count(at: URL | string, change: number): void {
    const origin = originOf(at);
    this.open.set(origin, Math.max(0, (this.open.get(origin) ?? 0) + change));
  }
}

const originOf = (at: URL | string) => new URL(String(at)).origin;
