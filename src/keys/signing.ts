// Request signing as the exchange documents it: three KALSHI-ACCESS-* headers, the signature over
// `timestamp(ms) + METHOD + path`, where path is the URL's full path (base path included, query excluded). RSA
// keys sign with PSS/SHA-256/MGF1-SHA-256, salt = digest length; Ed25519 keys sign the same message.
import { constants, sign, type KeyObject } from 'node:crypto';

export interface Signer {
  keyId: string;
  privateKey: KeyObject;
  /** Where the private key came from, for hints: "key file /x/key.pem", "TRIDENT_PRIVATE_KEY". */
  source: string;
}

export const KEY_HEADER = 'KALSHI-ACCESS-KEY';
export const TIMESTAMP_HEADER = 'KALSHI-ACCESS-TIMESTAMP';
export const SIGNATURE_HEADER = 'KALSHI-ACCESS-SIGNATURE';

/** The signed text: `1703123456789GET/trade-api/v2/api_keys`. */
export function signingMessage(timestampMs: number, method: string, url: URL): string {
  return `${Math.trunc(timestampMs)}${method.toUpperCase()}${url.pathname}`;
}

/** Base64 signature of `message` with an RSA (PSS) or Ed25519 private key. */
export function signMessage(privateKey: KeyObject, message: string): string {
  const data = Buffer.from(message, 'utf8');
  if (privateKey.asymmetricKeyType === 'ed25519') return sign(null, data, privateKey).toString('base64');
  return sign('sha256', data, {
    key: privateKey,
    padding: constants.RSA_PKCS1_PSS_PADDING,
    saltLength: constants.RSA_PSS_SALTLEN_DIGEST,
  }).toString('base64');
}

/** The three authentication headers for one attempt of a request. */
export function signedHeaders(signer: Signer, method: string, url: URL, nowMs: number): Record<string, string> {
  const timestamp = Math.trunc(nowMs);
  return {
    [KEY_HEADER]: signer.keyId,
    [TIMESTAMP_HEADER]: String(timestamp),
    [SIGNATURE_HEADER]: signMessage(signer.privateKey, signingMessage(timestamp, method, url)),
  };
}
