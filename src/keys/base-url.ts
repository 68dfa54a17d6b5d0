// The key service's base URL from a configured value: `production` and `demo` stand for the exchange's
// documented hosts, a bare origin gets the default base path. Kept apart from the rest of the connection so
// that `config list` and `status` can show what a value resolves to cheaply.
import { usageError } from '../core/errors.js';
import { assertSecureUrl, parseBaseUrl } from '../core/http/url.js';

export const DEFAULT_BASE_PATH = '/trade-api/v2';

/** The recommended base URLs of the exchange's two environments. */
export const KEYS_URL_ALIASES = {
  production: 'https://external-api.kalshi.com/trade-api/v2',
  demo: 'https://external-api.demo.kalshi.co/trade-api/v2',
} as const;

export type KeysUrlAlias = keyof typeof KEYS_URL_ALIASES;

export interface ResolvedKeysUrl {
  /** With the base path, never doubled: https://host/trade-api/v2 */
  url: URL;
  /** Set when the value was `production` or `demo`. */
  alias?: KeysUrlAlias;
}

/** `demo` → 'demo' (any case, spaces around ignored); undefined for anything else. */
export function keysUrlAlias(value: string): KeysUrlAlias | undefined {
  const name = value.trim().toLowerCase();
  return Object.hasOwn(KEYS_URL_ALIASES, name) ? (name as KeysUrlAlias) : undefined;
}

/**
 * An alias becomes its environment's URL; a bare origin gets the default base path; a URL that already has
 * a path (`/trade-api/v2`, with or without a trailing slash) keeps it. `origin` names the value in messages.
 */
export function resolveKeysUrl(value: string, origin = 'keys service URL'): ResolvedKeysUrl {
  const alias = keysUrlAlias(value);
  if (alias !== undefined) return { url: new URL(KEYS_URL_ALIASES[alias]), alias };
  if (!URL.canParse(value)) {
    throw usageError(
      `invalid ${origin} "${value}": not a URL`,
      `give https://<host>${DEFAULT_BASE_PATH}, or production or demo for the exchange's environments`,
    );
  }
  const url = parseBaseUrl(value, origin);
  const path = url.pathname.replace(/\/+$/, '');
  url.pathname = path === '' ? DEFAULT_BASE_PATH : path;
  assertSecureUrl(url, origin, true);
  return { url };
}
