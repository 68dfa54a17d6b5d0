import { createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TridentError } from '../../../src/core/errors.js';
import { generateRsaKeyPair, normalizePem, privateKeyFromPem, publicKeyForUpload } from '../../../src/keys/mint/keypair.js';
import { selfSignedCertificatePem, thrownBy } from './fixtures.js';

let rsa: { privateKey: KeyObject; publicKey: KeyObject };
let spki: string;

beforeAll(() => {
  rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  spki = rsa.publicKey.export({ type: 'spki', format: 'pem' }).toString();
});

function refusal(fn: () => unknown): TridentError {
  const error = thrownBy(fn);
  expect(error.exitCode).toBe(2);
  return error;
}

const samePublicKey = (a: KeyObject, b: KeyObject) =>
  a.export({ type: 'spki', format: 'der' }).equals(b.export({ type: 'spki', format: 'der' }));

describe('privateKeyFromPem', () => {
  it('reads PKCS#1 and PKCS#8 RSA keys', () => {
    const pkcs1 = rsa.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    const pkcs8 = rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(pkcs1).toContain('BEGIN RSA PRIVATE KEY');
    expect(pkcs8).toContain('BEGIN PRIVATE KEY');
    for (const pem of [pkcs1, pkcs8]) expect(samePublicKey(createPublicKey(privateKeyFromPem(pem, 'k')), rsa.publicKey)).toBe(true);
  });

  it('reads Ed25519 keys', () => {
    const ed = generateKeyPairSync('ed25519');
    const key = privateKeyFromPem(ed.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), 'k');
    expect(key.asymmetricKeyType).toBe('ed25519');
  });

  it('accepts PEM with literal \\n escapes, quotes and CRLF, as CI secret stores hand it over', () => {
    const pem = rsa.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    const escaped = pem.trim().replace(/\n/g, '\\n');
    expect(escaped).not.toContain('\n');
    for (const text of [escaped, `"${escaped}"`, pem.replace(/\n/g, '\r\n'), `  ${pem}  `]) {
      const key = privateKeyFromPem(text, 'TRIDENT_PRIVATE_KEY');
      const data = Buffer.from('x');
      expect(verify('sha256', data, rsa.publicKey, sign('sha256', data, key))).toBe(true);
    }
    expect(normalizePem(escaped)).toBe(pem);
  });

  it('refuses what cannot sign: public keys, encrypted keys, EC keys, garbage', () => {
    expect(refusal(() => privateKeyFromPem(spki, 'the file')).message).toContain('PUBLIC KEY, not a private key');
    const encrypted = rsa.privateKey.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'pw' }).toString();
    expect(refusal(() => privateKeyFromPem(encrypted, 'the file')).hint).toContain('openssl pkey');
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(refusal(() => privateKeyFromPem(ec, 'the file')).message).toContain('cannot sign');
    expect(refusal(() => privateKeyFromPem('hello', 'the file')).message).toContain('not a PEM private key');
  });
});

describe('publicKeyForUpload', () => {
  it('passes an RSA 2048 SubjectPublicKeyInfo through', () => {
    const upload = publicKeyForUpload(spki, 'k');
    expect(upload).toEqual({ publicKeyPem: spki, fromPrivateKey: false, description: 'RSA 2048-bit' });
  });

  it('turns a PKCS#1 RSA public key into SubjectPublicKeyInfo', () => {
    const upload = publicKeyForUpload(rsa.publicKey.export({ type: 'pkcs1', format: 'pem' }).toString(), 'k');
    expect(upload.publicKeyPem).toBe(spki);
  });

  it('accepts an Ed25519 public key', () => {
    const ed = generateKeyPairSync('ed25519');
    const upload = publicKeyForUpload(ed.publicKey.export({ type: 'spki', format: 'pem' }).toString(), 'k');
    expect(upload.description).toBe('Ed25519');
    expect(upload.publicKeyPem).toContain('BEGIN PUBLIC KEY');
  });

  it('turns a private key (PKCS#1 or PKCS#8, escaped or not) into its public half, and says so', () => {
    for (const type of ['pkcs1', 'pkcs8'] as const) {
      const pem = rsa.privateKey.export({ type, format: 'pem' }).toString();
      for (const text of [pem, pem.replace(/\n/g, '\\n')]) {
        const upload = publicKeyForUpload(text, 'k');
        expect(upload.fromPrivateKey).toBe(true);
        expect(upload.publicKeyPem).toBe(spki);
        expect(upload.publicKeyPem).not.toContain('PRIVATE');
      }
    }
  });

  it('refuses a certificate, with the command that extracts its key', () => {
    const error = refusal(() => publicKeyForUpload(selfSignedCertificatePem(), 'cert.pem'));
    expect(error.message).toBe('cert.pem is a certificate, not a public key');
    expect(error.hint).toContain('openssl x509 -pubkey');
  });

  it('refuses a DSA key, public or private', () => {
    // Refused for being DSA, whatever its size: a small one is made in milliseconds rather than half a second.
    const dsa = generateKeyPairSync('dsa', { modulusLength: 1024, divisorLength: 160 });
    expect(refusal(() => publicKeyForUpload(dsa.publicKey.export({ type: 'spki', format: 'pem' }).toString(), 'k')).message).toContain(
      'DSA',
    );
    expect(refusal(() => publicKeyForUpload(dsa.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), 'k')).message).toContain(
      'DSA',
    );
  });

  it('refuses an RSA key under 2048 bits, public or private', () => {
    const small = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const error = refusal(() => publicKeyForUpload(small.publicKey.export({ type: 'spki', format: 'pem' }).toString(), 'k'));
    expect(error.message).toBe('k is an RSA key of 1024 bits; the service needs at least 2048');
    refusal(() => publicKeyForUpload(small.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(), 'k'));
  });

  it('refuses an EC key and text that is no PEM', () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    refusal(() => publicKeyForUpload(ec.publicKey.export({ type: 'spki', format: 'pem' }).toString(), 'k'));
    refusal(() => publicKeyForUpload('ssh-rsa AAAAB3NzaC1yc2E user@host', 'k'));
    refusal(() => publicKeyForUpload('-----BEGIN PUBLIC KEY-----\nnot base64\n-----END PUBLIC KEY-----\n', 'k'));
  });
});

describe('generateRsaKeyPair', () => {
  // The smallest size: a 3072-bit pair takes over a second to make, and test/e2e/keys-create.test.ts asks for one.
  it('makes a matching pair: PKCS#8 private, SubjectPublicKeyInfo public, of the asked size', async () => {
    const pair = await generateRsaKeyPair(2048);
    expect(pair.privateKeyPem).toContain('BEGIN PRIVATE KEY');
    expect(pair.publicKeyPem).toContain('BEGIN PUBLIC KEY');
    const privateKey = privateKeyFromPem(pair.privateKeyPem, 'k');
    expect(privateKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(samePublicKey(createPublicKey(privateKey), createPublicKey(pair.publicKeyPem))).toBe(true);
  });
});
