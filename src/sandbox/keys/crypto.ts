// Key material for the keys sandbox: parsing uploaded public keys, verifying request signatures, minting pairs.
import { constants, createPublicKey, generateKeyPair, verify, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';

const generateKeyPairAsync = promisify(generateKeyPair);

// Exactly one SubjectPublicKeyInfo block: createPublicKey alone would also accept private keys and certificates.
const SPKI_PEM = /^-----BEGIN PUBLIC KEY-----\r?\n[A-Za-z0-9+/=\r\n]+-----END PUBLIC KEY-----\s*$/;

export type ParsedPublicKey = { ok: true; key: KeyObject } | { ok: false; reason: string };

export function parsePublicKeyPem(pem: string): ParsedPublicKey {
  const text = pem.trimStart();
  if (!SPKI_PEM.test(text)) {
    return { ok: false, reason: 'public_key must be a PEM-encoded SubjectPublicKeyInfo (-----BEGIN PUBLIC KEY-----)' };
  }
  let key: KeyObject;
  try {
    key = createPublicKey({ key: text, format: 'pem', type: 'spki' });
  } catch {
    return { ok: false, reason: 'public_key is not a readable PEM public key' };
  }
  if (key.asymmetricKeyType === 'ed25519') return { ok: true, key };
  if (key.asymmetricKeyType === 'rsa') {
    const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
    if (bits < 2048) return { ok: false, reason: `public_key is RSA with ${bits} bits; at least 2048 are required` };
    return { ok: true, key };
  }
  return { ok: false, reason: `public_key type ${key.asymmetricKeyType ?? 'unknown'} is not supported; use RSA or Ed25519` };
}

/** RSA keys: PSS, SHA-256, MGF1-SHA-256, salt = digest length. Ed25519 keys: plain Ed25519. */
export function verifySignature(key: KeyObject, message: string, signature: Buffer): boolean {
  const data = Buffer.from(message, 'utf8');
  try {
    if (key.asymmetricKeyType === 'ed25519') return verify(null, data, key, signature);
    return verify(
      'sha256',
      data,
      { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST },
      signature,
    );
  } catch {
    return false;
  }
}

/** An RSA-2048 pair: private half as PKCS#1 PEM (what the exchange hands out), public half as SPKI PEM. */
export async function generateRsaPair(): Promise<{ privateKeyPem: string; publicKeyPem: string }> {
  const { privateKey, publicKey } = await generateKeyPairAsync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  });
  return { privateKeyPem: privateKey, publicKeyPem: publicKey };
}
