// Which keys a disk holds: the public halves of the private keys found in files. A key of the service whose
// public half is not among them is a key nobody there holds.
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The public half (SPKI PEM) of a private key in PEM, or undefined for text that is no private key. */
export function publicHalfOf(privateKeyPem: string): string | undefined {
  try {
    return createPublicKey(createPrivateKey(privateKeyPem)).export({ type: 'spki', format: 'pem' }).toString();
  } catch {
    return undefined;
  }
}

/** The public halves (SPKI PEM) of every private key file (*.pem) in `dirs`: what this machine holds. */
export function heldPublicKeys(...dirs: string[]): Set<string> {
  const held = new Set<string>();
  for (const dir of dirs.filter((d) => existsSync(d))) {
    for (const name of readdirSync(dir).filter((file) => file.endsWith('.pem'))) {
      const half = publicHalfOf(readFileSync(join(dir, name), 'utf8'));
      if (half !== undefined) held.add(half);
    }
  }
  return held;
}
