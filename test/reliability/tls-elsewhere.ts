// A certificate for another host: a self-signed certificate for elsewhere.invalid only. A time sandbox serving
// it on 127.0.0.1, with the certificate itself as the trusted CA, fails on the name alone.
import { generateKeyPairSync } from 'node:crypto';
import forge from 'node-forge';
import type { SandboxTls } from '../../src/sandbox/http/tls.js';

export const ELSEWHERE = 'elsewhere.invalid';

export function tlsForElsewhere(): SandboxTls {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  });
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey);
  cert.serialNumber = '01';
  cert.validity.notBefore = new Date(Date.now() - 86_400_000);
  cert.validity.notAfter = new Date(Date.now() + 86_400_000);
  const subject = [{ name: 'commonName', value: ELSEWHERE }];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true },
    { name: 'subjectAltName', altNames: [{ type: 2, value: ELSEWHERE }] },
  ]);
  cert.sign(forge.pki.privateKeyFromPem(privateKey), forge.md.sha256.create());
  const pem = forge.pki.certificateToPem(cert);
  return { caCertPem: pem, certPem: pem, keyPem: privateKey };
}
