// Key material on this side: generating RSA pairs locally, reading private keys (PKCS#1, PKCS#8, Ed25519;
// also PEM pasted into CI secrets with literal "\n" escapes), and checking a public key before it is uploaded.
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { usageError } from '../../core/errors.js';

export const RSA_BITS = [2048, 3072, 4096] as const;
export type RsaBits = (typeof RSA_BITS)[number];
const MIN_RSA_BITS = 2048;
const SUPPORTED = 'use RSA (2048 bits or more) or Ed25519';

export interface KeyPairPem {
  /** PKCS#8 PEM: secret. */
  privateKeyPem: string;
  /** SubjectPublicKeyInfo PEM: what the service receives. */
  publicKeyPem: string;
}

export interface UploadablePublicKey {
  publicKeyPem: string;
  /** The input was a private key and only its public half is uploaded. */
  fromPrivateKey: boolean;
  description: string;
}

/** Undoes what CI secret stores do to PEM text: literal `\n` escapes, surrounding quotes, CRLF. */
export function normalizePem(text: string): string {
  let pem = text.trim();
  if (pem.length >= 2 && (pem[0] === '"' || pem[0] === "'") && pem.at(-1) === pem[0]) pem = pem.slice(1, -1).trim();
  return `${pem.replace(/\\r\\n|\\n/g, '\n').replace(/\r\n/g, '\n')}\n`;
}

function pemLabel(pem: string): string | undefined {
  return /-----BEGIN ([A-Z0-9 ]+)-----/.exec(pem)?.[1];
}

/** "RSA 2048-bit" or "Ed25519". */
export function describeKey(key: KeyObject): string {
  if (key.asymmetricKeyType === 'rsa') return `RSA ${key.asymmetricKeyDetails?.modulusLength ?? '?'}-bit`;
  if (key.asymmetricKeyType === 'ed25519') return 'Ed25519';
  return key.asymmetricKeyType?.toUpperCase() ?? 'unknown';
}

/** Parses a PEM private key that can sign requests (RSA or Ed25519). `what` names it in messages. */
export function privateKeyFromPem(text: string, what: string): KeyObject {
  const pem = normalizePem(text);
  const label = pemLabel(pem);
  if (label === undefined) throw usageError(`${what} is not a PEM private key (no "-----BEGIN ... PRIVATE KEY-----" line)`);
  if (label === 'ENCRYPTED PRIVATE KEY' || /Proc-Type: *4,ENCRYPTED/.test(pem)) {
    throw usageError(`${what} is an encrypted private key`, 'decrypt it first: openssl pkey -in encrypted.pem -out key.pem (keep it 0600)');
  }
  if (!label.endsWith('PRIVATE KEY')) throw usageError(`${what} is a ${label}, not a private key`);
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: pem, format: 'pem' });
  } catch (error) {
    throw usageError(`${what} is not a readable private key: ${(error as Error).message}`);
  }
  if (key.asymmetricKeyType !== 'rsa' && key.asymmetricKeyType !== 'ed25519') {
    throw usageError(`${what} is a ${describeKey(key)} key, which cannot sign requests`, SUPPORTED);
  }
  // The service takes no RSA key under 2048 bits, so a smaller one cannot be the private half of any key.
  const bits = key.asymmetricKeyDetails?.modulusLength ?? MIN_RSA_BITS;
  if (key.asymmetricKeyType === 'rsa' && bits < MIN_RSA_BITS) {
    throw usageError(`${what} is an RSA key of ${bits} bits; the service needs at least ${MIN_RSA_BITS}`, SUPPORTED);
  }
  return key;
}

/**
 * The SubjectPublicKeyInfo PEM to upload for `text`: a public key (SPKI or PKCS#1) as is, a private key
 * turned into its public half. Refuses certificates, encrypted keys, RSA under 2048 bits and other key types.
 */
export function publicKeyForUpload(text: string, what: string): UploadablePublicKey {
  const pem = normalizePem(text);
  const label = pemLabel(pem);
  if (label === undefined) throw usageError(`${what} is not a PEM public key (no "-----BEGIN PUBLIC KEY-----" line)`);
  if (label.includes('CERTIFICATE')) {
    throw usageError(
      `${what} is a certificate, not a public key`,
      'extract its key: openssl x509 -pubkey -noout -in cert.pem > public.pem',
    );
  }
  let key: KeyObject;
  let fromPrivateKey = false;
  if (label.endsWith('PRIVATE KEY')) {
    key = createPublicKey(privateKeyFromPem(pem, what));
    fromPrivateKey = true;
  } else if (label === 'PUBLIC KEY' || label === 'RSA PUBLIC KEY') {
    try {
      key = createPublicKey({ key: pem, format: 'pem' });
    } catch (error) {
      throw usageError(`${what} is not a readable public key: ${(error as Error).message}`);
    }
  } else {
    throw usageError(`${what} is a ${label}, not a public key`);
  }
  if (key.asymmetricKeyType === 'rsa') {
    const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
    if (bits < MIN_RSA_BITS)
      throw usageError(`${what} is an RSA key of ${bits} bits; the service needs at least ${MIN_RSA_BITS}`, SUPPORTED);
  } else if (key.asymmetricKeyType !== 'ed25519') {
    throw usageError(`${what} is a ${describeKey(key)} key, which the service does not accept`, SUPPORTED);
  }
  return { publicKeyPem: key.export({ type: 'spki', format: 'pem' }).toString(), fromPrivateKey, description: describeKey(key) };
}

/** A fresh RSA pair made here (native node:crypto): the private half never leaves this machine. */
export async function generateRsaKeyPair(bits: RsaBits): Promise<KeyPairPem> {
  // Synchronous on purpose: nothing else runs meanwhile, and the thread-pool hop of the async form only adds time.
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: bits,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { privateKeyPem: privateKey, publicKeyPem: publicKey };
}
