// HTTPS_PROXY / HTTP_PROXY / NO_PROXY as the HTTP core reads them: checked before use (a value undici
// cannot use is exit 2, not a crash), never applied to this machine (signed requests and minted keys must
// not cross a proxy in clear text, and a remote proxy would reach its own 127.0.0.1), and named in messages.
import { ExitCode, TridentError, usageError } from '../errors.js';
import { redactUrlText } from './redact.js';
import { isLoopback } from './url.js';

export interface ProxySetting {
  value: string;
  /** The variable it came from, as set (HTTPS_PROXY or https_proxy ...), for messages. */
  variable: string;
}

export interface Proxies {
  httpProxy?: ProxySetting;
  httpsProxy?: ProxySetting;
  noProxy?: string;
}

export interface ProxyInUse {
  url: URL;
  variable: string;
}

const PROXY_PROTOCOLS = new Set(['http:', 'https:', 'socks:', 'socks5:']);

export function proxiesFrom(env: NodeJS.ProcessEnv): Proxies | undefined {
  const pick = (...names: string[]): ProxySetting | undefined => {
    const variable = names.find((name) => env[name]);
    return variable ? { value: env[variable]!, variable } : undefined;
  };
  const httpsProxy = pick('HTTPS_PROXY', 'https_proxy');
  const httpProxy = pick('HTTP_PROXY', 'http_proxy');
  return httpsProxy || httpProxy ? { httpProxy, httpsProxy, noProxy: env.NO_PROXY ?? env.no_proxy } : undefined;
}

/** Exit 2 for a proxy setting that is not a proxy URL (undici would throw a TypeError: exit 1). */
export function checkProxies(proxies: Proxies): void {
  for (const setting of [proxies.httpsProxy, proxies.httpProxy]) if (setting) proxyUrl(setting);
}

function proxyUrl(setting: ProxySetting): URL {
  const url = URL.canParse(setting.value) ? new URL(setting.value) : undefined;
  if (!url || !PROXY_PROTOCOLS.has(url.protocol) || !url.hostname) {
    throw usageError(
      `invalid ${setting.variable} "${redactUrlText(setting.value)}": not a proxy URL`,
      `write it as http://host:port, or unset ${setting.variable}`,
    );
  }
  return url;
}

/**
 * The proxy a request to `url` goes through, if any: as undici's EnvHttpProxyAgent, but never for loopback.
 * Exit 2 when that proxy's setting is not a proxy URL.
 */
export function proxyFor(proxies: Proxies | undefined, url: URL): ProxyInUse | undefined {
  if (!proxies || isLoopback(url) || inNoProxy(proxies.noProxy, url)) return undefined;
  const setting = url.protocol === 'https:' && proxies.httpsProxy ? proxies.httpsProxy : proxies.httpProxy;
  return setting ? { url: proxyUrl(setting), variable: setting.variable } : undefined;
}

/** NO_PROXY as undici reads it: `*`, or host names (a leading dot or `*.` for subdomains), each with an optional port. */
function inNoProxy(noProxy: string | undefined, url: URL): boolean {
  return (noProxy ?? '')
    .split(/[,\s]+/)
    .filter(Boolean)
    .some((entry) => {
      if (entry === '*') return true;
      const [host = '', port] = entry
        .replace(/^\*?\./, '')
        .toLowerCase()
        .split(':');
      if (port && port !== portOf(url)) return false;
      return url.hostname === host || url.hostname.endsWith(`.${host}`);
    });
}

const portOf = (url: URL) => url.port || (url.protocol === 'https:' ? '443' : '80');

/**
 * A connection the proxy could not make is not the service's fault: name the proxy. Told apart by the
 * address the socket tried (the proxy's port or host name, not the service's); with NO_PROXY or equal
 * ports it stays the service.
 */
export function failedAtProxy(
  err: NodeJS.ErrnoException & { port?: number; hostname?: string },
  url: URL,
  proxy: ProxyInUse | undefined,
): boolean {
  if (!proxy) return false;
  const port = err.port !== undefined ? String(err.port) : undefined;
  if (port !== undefined) return port === portOf(proxy.url) && port !== portOf(url);
  return err.hostname !== undefined && err.hostname === proxy.url.hostname && err.hostname !== url.hostname;
}

const named = (proxy: ProxyInUse) => `the proxy ${proxy.url.host} (${proxy.variable})`;

/**
 * The proxy's own answers to CONNECT, as undici reports them: a 407 (the credentials in the proxy URL were
 * refused, or none were given), another status (it would not open the tunnel), a closed connection.
 * Undefined for an error that is not the proxy's.
 */
export function proxyRefusal(err: Error & { code?: string }, url: URL, proxy: ProxyInUse | undefined): TridentError | undefined {
  if (!proxy) return undefined;
  const status = /Proxy response \((\d+)\)/.exec(err.message)?.[1];
  if (status === '407') {
    return new TridentError(ExitCode.auth, `${named(proxy)} refused the credentials (407 Proxy Authentication Required)`, {
      hint: `check the user:password in ${proxy.variable} (written http://user:password@host:port)`,
      status: 407,
      code: 'PROXY_AUTH',
    });
  }
  if (status !== undefined) {
    return new TridentError(ExitCode.unavailable, `${named(proxy)} would not open a connection to ${url.host}: it answered ${status}`, {
      hint: `check the proxy, or list ${url.hostname} in NO_PROXY to go direct`,
      code: 'PROXY_REFUSED',
    });
  }
  if (err.code === 'UND_ERR_SOCKET') {
    return new TridentError(ExitCode.unavailable, `${named(proxy)} closed the connection instead of opening one to ${url.host}`, {
      hint: `check the proxy, or list ${url.hostname} in NO_PROXY to go direct`,
      code: 'PROXY_CLOSED',
    });
  }
  return undefined;
}

/** The deadline ran out before the proxy opened the tunnel. */
export function proxyStalled(url: URL, proxy: ProxyInUse, ms: number): TridentError {
  return new TridentError(ExitCode.unavailable, `${named(proxy)} did not open a connection to ${url.host} within ${ms / 1000} s`, {
    hint: `check the proxy, or list ${url.hostname} in NO_PROXY to go direct; a longer --timeout may help`,
    code: 'PROXY_TIMEOUT',
  });
}
