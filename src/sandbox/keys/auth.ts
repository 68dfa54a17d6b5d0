// Request authentication of the keys sandbox: the exchange's three KALSHI-ACCESS-* headers, a millisecond
// timestamp within the clock tolerance, and a signature over `timestamp + METHOD + path` (path without query).
import type { SandboxRequest, SandboxResponse } from '../http/server.js';
import { verifySignature } from './crypto.js';
import { authError } from './errors.js';
import type { KeyStore, StoredKey } from './store.js';

export type AuthResult = { ok: true; key: StoredKey } | { ok: false; response: SandboxResponse };

function header(req: SandboxRequest, name: string): string | undefined {
  const value = req.headers[name];
  const text = Array.isArray(value) ? value[0] : value;
  return text === undefined || text === '' ? undefined : text;
}

export function authenticate(req: SandboxRequest, store: KeyStore, now: number, toleranceMs: number): AuthResult {
  const keyId = header(req, 'kalshi-access-key');
  const timestamp = header(req, 'kalshi-access-timestamp');
  const signature = header(req, 'kalshi-access-signature');
  if (keyId === undefined || timestamp === undefined || signature === undefined) {
    return { ok: false, response: authError('MISSING_AUTH_HEADERS') };
  }
  const key = store.get(keyId);
  if (!key) return { ok: false, response: authError('INCORRECT_API_KEY') };
  if (!/^\d{1,16}$/.test(timestamp)) return { ok: false, response: authError('INCORRECT_API_KEY_SIGNATURE') };

  const ms = Number(timestamp);
  if (Math.abs(ms - now) > toleranceMs) {
    // Seconds instead of milliseconds is a classic client mistake; the exchange reports it as a bad signature.
    const looksLikeSeconds = Math.abs(ms * 1000 - now) <= toleranceMs + 1000;
    return { ok: false, response: authError(looksLikeSeconds ? 'INCORRECT_API_KEY_SIGNATURE' : 'header_timestamp_expired') };
  }
  if (key.rejected || !/^[A-Za-z0-9+/]+={0,2}$/.test(signature)) {
    return { ok: false, response: authError('INCORRECT_API_KEY_SIGNATURE') };
  }
  const message = `${timestamp}${req.method.toUpperCase()}${req.path}`;
  if (!verifySignature(key.publicKey, message, Buffer.from(signature, 'base64'))) {
    return { ok: false, response: authError('INCORRECT_API_KEY_SIGNATURE') };
  }
  return { ok: true, key };
}
