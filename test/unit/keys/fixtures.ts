// What the keys unit tests share: catching the TridentError a call ends with, and key material node:crypto
// cannot make (an X.509 certificate).
import forge from 'node-forge';
import { expect } from 'vitest';
import { TridentError } from '../../../src/core/errors.js';

/** The TridentError `fn` throws (fails the test if it throws nothing or something else). */
export function thrownBy(fn: () => unknown): TridentError {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(TridentError);
  return caught as TridentError;
}

/** The TridentError `promise` rejects with. */
export async function rejectionOf(promise: Promise<unknown>): Promise<TridentError> {
  const caught = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(caught).toBeInstanceOf(TridentError);
  return caught as TridentError;
}

export function selfSignedCertificatePem(): string {
  const keys = forge.pki.rsa.generateKeyPair(1024);
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = '01';
  cert.validity.notBefore = new Date();
  cert.validity.notAfter = new Date(Date.now() + 86_400_000);
  cert.setSubject([{ name: 'commonName', value: 'trident test' }]);
  cert.setIssuer([{ name: 'commonName', value: 'trident test' }]);
  cert.sign(keys.privateKey, forge.md.sha256.create());
  return forge.pki.certificateToPem(cert);
}
