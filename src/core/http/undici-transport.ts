// undici's proxy agent, for the route node-transport.ts does not take: through HTTPS_PROXY or HTTP_PROXY (a CONNECT
// tunnel for https, with its SOCKS and TLS-to-proxy variants). Loaded only by clients that need it.
import { EnvHttpProxyAgent, Pool, type Dispatcher } from 'undici';
import { baselineWasmCompilerOnly } from '../wasm-tier.js';
import type { ConnectionWatch } from './connection-watch.js';
import type { Proxies } from './proxies.js';
import { fromDispatcher, type Transport } from './transport.js';

export interface UndiciRoute {
  timeoutMs: number;
  ca: string[] | undefined;
  proxies: Proxies;
  watch: ConnectionWatch;
}

export function undiciTransport(route: UndiciRoute): Transport {
  return fromDispatcher(makeDispatcher(route));
}

function makeDispatcher({ timeoutMs, ca, proxies, watch }: UndiciRoute): Dispatcher {
  baselineWasmCompilerOnly();
  const settings = {
    keepAliveTimeout: 10_000,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connect: { timeout: timeoutMs, ...(ca ? { ca } : {}) },
    factory: watchedPools(watch),
  };
  // Through a proxy, undici takes TLS options for the service (inside the tunnel) and for an https:// proxy
  // apart from `connect`: the extra CA goes to both.
  return new EnvHttpProxyAgent({
    ...settings,
    httpProxy: proxies.httpProxy?.value,
    httpsProxy: proxies.httpsProxy?.value,
    noProxy: proxies.noProxy,
    requestTls: settings.connect,
    proxyTls: settings.connect,
  });
}

/** For undici's `factory` option: the pools it would make, reporting to the watch. */
function watchedPools(watch: ConnectionWatch) {
  return (origin: string | URL, options: object): Dispatcher => {
    const pool = new Pool(origin, options as ConstructorParameters<typeof Pool>[1]);
    pool.on('connect', (at: URL) => watch.opened(at));
    pool.on('disconnect', (at: URL) => watch.closed(at));
    pool.on('connectionError', (at: URL, _targets: unknown, error: Error) => watch.failed(at, error));
    return pool;
  };
}
