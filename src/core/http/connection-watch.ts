// What the connection pools of one dispatcher do, seen from the HTTP core: whether an origin has a connection open (so a
// deadline can tell "connecting" from "waiting for the answer"), and every failed connection attempt.
// undici 7 keeps a request queued when a connection fails with a socket error (a proxy that reads the
// CONNECT and closes), and connects again at once, for ever: a failure reported here ends the attempt.
import type { Dispatcher } from 'undici';
import { Pool } from './undici-lite.js';

type Listener = (error: Error) => void;

export class ConnectionWatch {
  private readonly open = new Map<string, number>();
  private readonly listeners = new Map<string, Set<Listener>>();

  /** For undici's `factory` option: the pools it would make, watched. */
  readonly factory = (origin: string | URL, options: object): Dispatcher => {
    const pool = new Pool(origin, options as ConstructorParameters<typeof Pool>[1]);
    pool.on('connect', (at: URL) => this.count(at, +1));
    pool.on('disconnect', (at: URL) => this.count(at, -1));
    pool.on('connectionError', (at: URL, _targets: unknown, error: Error) => {
      for (const listener of this.listeners.get(originOf(at)) ?? []) listener(error);
    });
    return pool;
  };

  isConnected(origin: string): boolean {
    return (this.open.get(origin) ?? 0) > 0;
  }

  /** Calls `listener` on every failed connection attempt to `origin` until the returned function is called. */
  onConnectionError(origin: string, listener: Listener): () => void {
    const set = this.listeners.get(origin) ?? new Set<Listener>();
    this.listeners.set(origin, set.add(listener));
    return () => set.delete(listener);
  }

  private count(at: URL, change: number): void {
    const origin = originOf(at);
    this.open.set(origin, Math.max(0, (this.open.get(origin) ?? 0) + change));
  }
}

const originOf = (at: URL | string) => new URL(String(at)).origin;
