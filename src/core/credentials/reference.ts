// Where a credential lives, as a profile records it: a file path, or `keyring:<service>/<account>` for an entry
// of the OS keyring. Everything that reads or writes a credential goes by this one string.
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
