// The connection pools a client sends through: undici's Agent (keep-alive, the attempt's timeouts, the extra
// CA), or its proxy agent when HTTPS_PROXY/HTTP_PROXY apply.
import type { Dispatcher } from 'undici';
import { TridentError, usageError } from '../errors.js';
import { INPUT_CAPS, readFileCappedSync } from '../files/capped-read.js';
import type { ConnectionWatch } from './connection-watch.js';
import type { Proxies } from './proxies.js';
import { Agent } from './undici-lite.js';
import type { EnvHttpProxyAgent } from './undici-proxy.js';

/** The extra CA, added to Node's roots; exit 2 for a file that is unreadable, too large or no certificate. */
export function readCa(caFile: string | undefined): string[] | undefined {
  if (!caFile) return undefined;
  let pem: string;
  try {
    pem = readFileCappedSync(caFile, INPUT_CAPS.key, `CA file ${caFile}`);
  } catch (error) {
    if (error instanceof TridentError) throw error;
    throw usageError(`cannot read CA file ${caFile}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  if (!isCertificatePem(pem)) {
    throw usageError(`CA file ${caFile} holds no PEM certificate`, 'pass the CA certificate (-----BEGIN CERTIFICATE-----) with --ca-file, TRIDENT_CA_FILE or caFile');
  }
  // node:tls is loaded here, not at start-up: a plain-HTTP command never needs it (~7 ms).
  return [...process.getBuiltinModule('node:tls').rootCertificates, pem];
}

export function makeDispatcher(
  timeoutMs: number,
  ca: string[] | undefined,
  proxies: Proxies | undefined,
  watch: ConnectionWatch,
  pipelining?: number,
  ProxyAgent?: typeof EnvHttpProxyAgent,
): Dispatcher {
  const settings = {
    keepAliveTimeout: 10_000,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connect: { timeout: timeoutMs, ...(ca ? { ca } : {}) },
    factory: watch.factory,
    ...(pipelining && pipelining > 1 ? { pipelining, connections: 1 } : {}),
  };
  if (!proxies) return new Agent(settings);
  if (!ProxyAgent) throw new Error('a proxy is set: open the HTTP client with openHttpClient()');
  // Through a proxy, undici takes TLS options for the service (inside the tunnel) and for an https:// proxy
  // apart from `connect`: the extra CA goes to both.
  return new ProxyAgent({
    ...settings,
    httpProxy: proxies.httpProxy?.value,
    httpsProxy: proxies.httpsProxy?.value,
    noProxy: proxies.noProxy,
    requestTls: settings.connect,
    proxyTls: settings.connect,
  });
}

function isCertificatePem(pem: string): boolean {
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) return false;
  try {
    // node:crypto is loaded here, only for a CA file: a plain request never needs it (~3 ms of start-up).
    new (process.getBuiltinModule('node:crypto').X509Certificate)(pem);
    return true;
  } catch {
    return false;
  }
}
