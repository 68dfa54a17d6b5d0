// The extra CA of --ca-file / TRIDENT_CA_FILE / caFile, for whichever transport makes the TLS connection.
import { TridentError, usageError } from '../errors.js';
import { INPUT_CAPS, readFileCappedSync } from '../files/capped-read.js';

/** The extra CA, added to Node's roots; exit 2 for a file that is unreadable, too large or no certificate. */
export function readCa(caFile: string | undefined): string[] | undefined {
  if (!caFile) return undefined;
  let pem: string;
  try {
    pem = readFileCappedSync(caFile, INPUT_CAPS.key, `CA file ${caFile}`);
  } catch (error) {
    if (error instanceof TridentError) throw error;
    throw usageError(`cannot read CA file ${caFile}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  if (!isCertificatePem(pem)) {
    throw usageError(
      `CA file ${caFile} holds no PEM certificate`,
      'pass the CA certificate (-----BEGIN CERTIFICATE-----) with --ca-file, TRIDENT_CA_FILE or caFile',
    );
  }
  // node:tls is loaded here, not at start-up: a plain-HTTP command never needs it.
  return [...process.getBuiltinModule('node:tls').rootCertificates, pem];
}

function isCertificatePem(pem: string): boolean {
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) return false;
  try {
    // node:crypto is loaded here, only for a CA file: a plain request never needs it.
    new (process.getBuiltinModule('node:crypto').X509Certificate)(pem);
    return true;
  } catch {
    return false;
  }
}
