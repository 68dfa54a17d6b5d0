// The two ways a request can leave: the direct route (this machine, or no proxy set) and the one through the
// proxy. Each has its transport and the watch on its connections, made when first needed and made afresh after
// one was torn down.
import type { Dispatcher } from 'undici';
import { ConnectionWatch } from './connection-watch.js';
import { nodeTransport } from './node-transport.js';
import { checkProxies, type Proxies } from './proxies.js';
import { fromDispatcher, type Transport } from './transport.js';

export type Route = 'direct' | 'proxied';

export interface RouteSetup {
  timeoutMs: number;
  /** Extra CAs, already read. */
  ca: string[] | undefined;
  proxies: Proxies | undefined;
  /** A test's dispatcher (a MockAgent) carries every request instead. */
  dispatcher?: Dispatcher;
  undici?: typeof import('./undici-transport.js');
}

export interface OpenRoute {
  transport: Transport;
  watch: ConnectionWatch;
}

export class Routes {
  private readonly open: Partial<Record<Route, OpenRoute>> = {};
  /** Torn down with requests still queued in it: close() must not wait for them. */
  private abandoned = false;

  constructor(private readonly setup: RouteSetup) {}

  get(route: Route): OpenRoute {
    const { dispatcher, proxies } = this.setup;
    if (dispatcher) return (this.open[route] ??= { transport: fromDispatcher(dispatcher), watch: new ConnectionWatch() });
    if (route === 'proxied') checkProxies(proxies!);
    if (!this.open[route]) {
      const watch = new ConnectionWatch();
      this.open[route] = { watch, transport: this.transport(route, watch) };
    }
    return this.open[route];
  }

  /** Ends every connection of a route, also one still being made (undici 7 cannot abort those). */
  reset(route: Route): void {
    const old = this.setup.dispatcher ? undefined : this.open[route];
    if (!old) return;
    delete this.open[route];
    this.abandoned = true;
    old.transport.destroy().catch(() => undefined);
  }

  async close(): Promise<void> {
    if (this.setup.dispatcher) return;
    const transports = Object.values(this.open).map((route) => route.transport);
    await Promise.all(transports.map((transport) => (this.abandoned ? transport.destroy() : transport.close())));
  }

  private transport(route: Route, watch: ConnectionWatch): Transport {
    const { ca, timeoutMs, proxies, undici } = this.setup;
    if (route === 'direct') return nodeTransport(ca, watch);
    if (!undici) throw new Error('undici is needed for a proxy: open the HTTP client with openHttpClient()');
    return undici.undiciTransport({ timeoutMs, ca, proxies: proxies!, watch });
  }
}
