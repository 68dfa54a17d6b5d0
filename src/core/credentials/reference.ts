// Where a credential lives, as a profile records it: a file path, or `keyring:<service>/<account>` for an entry
// of the OS keyring. Everything that reads or writes a credential goes by this one string.
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import type { KeyringEntry } from './keyring.js';

const PREFIX = 'keyring:';
export const KEYRING_SERVICE = 'trident';

export function isKeyringReference(place: string): boolean {
  return place.startsWith(PREFIX);
}

/** `keyring:trident/keys/abc` → { service: 'trident', account: 'keys/abc' }; undefined for a path or a malformed one. */
export function keyringEntry(place: string): KeyringEntry | undefined {
  if (!isKeyringReference(place)) return undefined;
  const rest = place.slice(PREFIX.length);
  const slash = rest.indexOf('/');
  if (slash <= 0 || slash === rest.length - 1) return undefined;
  return { service: rest.slice(0, slash), account: rest.slice(slash + 1) };
}

export function keyringReference(account: string, service = KEYRING_SERVICE): string {
  return `${PREFIX}${service}/${account}`;
}

/**
 * The entry of one config dir: `keyring:trident/<dir tag>/<account>`, the tag a hash of the config dir's path.
 * The keyring is the user's, shared by every config dir (the sandbox's, a CI job's, a second account's), and
 * an entry named for the profile alone would be one config dir's token or key overwritten or removed by another.
 */
export function configDirKeyringReference(configDir: string, account: string): string {
  const tag = createHash('sha256').update(resolve(configDir)).digest('hex').slice(0, 12);
  return keyringReference(`${tag}/${account}`);
}
