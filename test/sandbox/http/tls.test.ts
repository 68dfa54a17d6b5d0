import { X509Certificate } from 'node:crypto';
import { connect, type ConnectionOptions } from 'node:tls';
import forge from 'node-forge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../src/sandbox/http/server.js';
import { makeSandboxTls, type SandboxTls } from '../../../src/sandbox/http/tls.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Resolves with the handshake's outcome: `ok`, or the error code of the failure. */
function handshake(options: ConnectionOptions): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(options, () => {
      socket.end();
      resolve('ok');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

describe('makeSandboxTls', () => {
  let tls: SandboxTls;
  let server: RunningServer;

  beforeAll(async () => {
    tls = makeSandboxTls();
    server = await startServer({
      host: '127.0.0.1',
      tls: { key: tls.keyPem, cert: tls.certPem },
      handler: () => ({ status: 200, body: 'hello' }),
    });
  });
  afterAll(() => server.close());

  it('a client trusting only the CA connects to 127.0.0.1', async () => {
    expect(await handshake({ host: '127.0.0.1', port: server.port, ca: tls.caCertPem })).toBe('ok');
  });

  it('a client trusting only the CA connects to localhost', async () => {
    // Dial the IPv4 loopback but verify the name "localhost" (localhost may resolve to ::1 first).
    expect(await handshake({ host: '127.0.0.1', servername: 'localhost', port: server.port, ca: tls.caCertPem })).toBe('ok');
  });

  it('a client without the CA fails with a certificate error', async () => {
    const outcome = await handshake({ host: '127.0.0.1', port: server.port });
    expect(outcome).toMatch(/CERT|UNABLE_TO_(GET_ISSUER|VERIFY)/);
    expect(outcome).not.toBe('ok');
  });

  it('a name outside the certificate is refused even with the CA', async () => {
    const outcome = await handshake({ host: '127.0.0.1', servername: 'example.com', port: server.port, ca: tls.caCertPem });
    expect(outcome).toBe('ERR_TLS_CERT_ALTNAME_INVALID');
  });

  it('another sandbox CA is not trusted', async () => {
    const other = makeSandboxTls();
    expect(await handshake({ host: '127.0.0.1', port: server.port, ca: other.caCertPem })).not.toBe('ok');
  });

  it('the certificates have the right shape', () => {
    const ca = new X509Certificate(tls.caCertPem);
    const leaf = new X509Certificate(tls.certPem);
    expect(ca.ca).toBe(true);
    const caUsage = forge.pki.certificateFromPem(tls.caCertPem).getExtension('keyUsage') as { keyCertSign?: boolean } | undefined;
    expect(caUsage?.keyCertSign).toBe(true);
    expect(leaf.keyUsage).toContain('1.3.6.1.5.5.7.3.1'); // extended key usage: serverAuth
    expect(leaf.ca).toBe(false);
    expect(leaf.checkIssued(ca)).toBe(true);
    expect(leaf.verify(ca.publicKey)).toBe(true);
    expect(leaf.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(leaf.checkIP('::1')).toBeDefined();
    expect(leaf.checkHost('localhost')).toBe('localhost');
    expect(leaf.checkHost('example.com')).toBeUndefined();
    expect(leaf.publicKey.asymmetricKeyDetails?.modulusLength).toBe(2048);

    const from = Date.parse(leaf.validFrom);
    const to = Date.parse(leaf.validTo);
    expect(Date.now() - from).toBeGreaterThan(DAY_MS - 60_000);
    expect(Date.now() - from).toBeLessThan(DAY_MS + 60_000);
    expect(to - from).toBeGreaterThanOrEqual(365 * DAY_MS);
    expect(to - from).toBeLessThanOrEqual(366 * DAY_MS);
  });
});
