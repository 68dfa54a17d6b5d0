// The token `time login` obtained, one file per profile: `<config dir>/tokens/<profile>.json`, mode 0600
// in a 0700 directory. No OS keyring is available on the machines this runs on, so the file is the store.
// It also remembers the User-Agent the token was created with: the service destroys a token used from another.
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
}

export function tokenPath(configDir: string, profile: string): string {
  return join(configDir, 'tokens', `${profile}.json`);
}

export async function saveToken(path: string, stored: StoredToken): Promise<void> {
  await writeSecretFile(path, `${JSON.stringify(stored, null, 2)}\n`, { force: true });
}
