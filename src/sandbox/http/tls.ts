// Certificates for the HTTPS sandbox: a throw-away CA and a loopback server certificate it signed, so a
// client can trust exactly this sandbox (`--ca-file`) without turning certificate checks off.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import forge from 'node-forge';

export interface SandboxTls {
  caCertPem: string;
  /** The server certificate's private key. */
  keyPem: string;
  certPem: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

interface RsaPair {
  privatePem: string;
  privateKey: forge.pki.rsa.PrivateKey;
  publicKey: forge.pki.rsa.PublicKey;
}

// node:crypto generates the key (native, fast); forge only builds and signs the certificates.
function rsaPair(): RsaPair {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  });
  return {
    privatePem: privateKey,
    privateKey: forge.pki.privateKeyFromPem(privateKey),
    publicKey: forge.pki.publicKeyFromPem(publicKey) as forge.pki.rsa.PublicKey,
  };
}

function newCertificate(publicKey: forge.pki.rsa.PublicKey, now: number): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = publicKey;
  // A positive serial whose first byte is not zero: DER reads a top bit set as negative, and a zero byte before
  // one under 0x80 is padding that DER forbids.
  const serial = randomBytes(16);
  serial[0] = (serial[0]! & 0x3f) | 0x40;
  cert.serialNumber = serial.toString('hex');
  cert.validity.notBefore = new Date(now - DAY_MS);
  const notAfter = new Date(now - DAY_MS);
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + 1);
  cert.validity.notAfter = notAfter;
  return cert;
}

export function makeSandboxTls(): SandboxTls {
  const now = Date.now();
  const caKeys = rsaPair();
  const ca = newCertificate(caKeys.publicKey, now);
  const caSubject = [
    { name: 'commonName', value: 'trident sandbox CA' },
    { name: 'organizationName', value: 'trident sandbox' },
  ];
  ca.setSubject(caSubject);
  ca.setIssuer(caSubject);
  ca.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  ca.sign(caKeys.privateKey, forge.md.sha256.create());

  const serverKeys = rsaPair();
  const server = newCertificate(serverKeys.publicKey, now);
  server.setSubject([{ name: 'commonName', value: 'localhost' }]);
  server.setIssuer(caSubject);
  server.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    {
      name: 'subjectAltName',
      altNames: [
        { type: 7, ip: '127.0.0.1' },
        { type: 7, ip: '::1' },
        { type: 2, value: 'localhost' },
        // A name that is not loopback, for tests that go through a proxy (loopback never does); their proxy
        // takes it to 127.0.0.1.
        { type: 2, value: 'proxied.test' },
      ],
    },
    { name: 'subjectKeyIdentifier' },
    { name: 'authorityKeyIdentifier', keyIdentifier: ca.generateSubjectKeyIdentifier().getBytes() },
  ]);
  server.sign(caKeys.privateKey, forge.md.sha256.create());

  return {
    caCertPem: forge.pki.certificateToPem(ca),
    keyPem: serverKeys.privatePem,
    certPem: forge.pki.certificateToPem(server),
  };
}
