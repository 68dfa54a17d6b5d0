// Building request URLs from a configured base URL, and refusing ones that would send secrets in clear text.
import { usageError } from '../errors.js';
import { redactUrlText } from './redact.js';

export type QueryValue = string | number | boolean | undefined | null | Array<string | number>;

/**
 * Parses a configured base URL; exit 2 with the setting's name when it is not one. A user:password in it is
 * refused rather than dropped: no service of trident's takes Basic credentials, and one that looked used
 * while it was not would mislead (the credentials go in --key-id/--private-key or `trident time login`).
 */
export function parseBaseUrl(value: string, what: string): URL {
  const invalid = (why: string, hint?: string) => usageError(`invalid ${what} "${redactUrlText(value)}": ${why}`, hint);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid('not a URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalid('use http(s)://');
  if (url.search || url.hash) throw invalid('a base URL has no query or fragment');
  if (url.username || url.password) {
    throw invalid(
      'a user name or password in the URL is not sent to the service',
      'remove it from the URL; sign in the way the command group does (keys: --key-id and --private-key; time: trident time login)',
    );
  }
  return url;
}

/**
 * Appends `path` to the base URL's path with exactly one slash between them, and the query
 * (arrays become repeated parameters; undefined and null are left out).
 */
export function joinUrl(base: URL, path: string, query: Record<string, QueryValue> = {}): URL {
  const url = new URL(base.href);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(item));
  }
  return url;
}

/**
 * This machine's loopback: 127.0.0.0/8, ::1, localhost, and their other spellings (::ffff:127.x.x.x, which the
 * URL parser writes ::ffff:7f00:1; "localhost."). Not 0.0.0.0 or ::: bound to, they are every interface.
 */
export function isLoopback(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return (
    host === 'localhost' ||
    host === 'localhost.' ||
    host === '::1' ||
    /^127(\.\d{1,3}){3}$/.test(host) ||
    /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(host)
  );
}

/** Secrets travel only over HTTPS; plain HTTP only to this machine when `allowLoopbackHttp`. */
export function assertSecureUrl(url: URL, what: string, allowLoopbackHttp: boolean): void {
  if (url.protocol === 'https:') return;
  if (allowLoopbackHttp && isLoopback(url)) return;
  throw usageError(
    `refusing to send credentials in clear text to ${url.origin} (${what})`,
    allowLoopbackHttp ? 'use an https:// URL (http:// is accepted only for 127.0.0.1, ::1 and localhost)' : 'use an https:// URL',
  );
}
