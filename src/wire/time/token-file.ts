// The token `time login` obtained, as a file per profile: `<config dir>/tokens/<profile>.json`, mode 0600
// in a 0700 directory (the same text goes to the OS keyring where time login puts it there).
// It also remembers the User-Agent the token was created with (the service destroys a token used from another)
// and the tracker that issued it (a token is sent to no other).
// The sandbox writes one for its own profile, so that the time commands reach it as they reach the service.
import { join } from 'node:path';
import { writeSecretFile } from '../../core/files/secret-file.js';

export interface StoredToken {
  token: string;
  userAgent: string;
  accountId: string | null;
  email: string | null;
  /** ISO 8601. */
  createdAt: string;
  /** The tracker that issued the token (tokenIssuer): it is sent nowhere else. Absent in files of earlier releases. */
  issuer?: string;
}

/** A base URL as a token's issuer: scheme, host, port and path, without a trailing slash. */
export function tokenIssuer(baseUrl: URL): string {
  return `${baseUrl.origin}${baseUrl.pathname.replace(/\/+$/, '')}`;
}

export function tokenPath(configDir: string, profile: string): string {
  return join(configDir, 'tokens', `${profile}.json`);
}

export function serializeToken(stored: StoredToken): string {
  return `${JSON.stringify(stored, null, 2)}\n`;
}

export async function saveToken(path: string, stored: StoredToken): Promise<void> {
  await writeSecretFile(path, serializeToken(stored), { force: true });
}
