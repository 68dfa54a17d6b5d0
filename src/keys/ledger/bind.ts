// Binding a profile to a key: the one way a person's change of a profile's settings reaches keys.keyId or
// keys.privateKeyFile (`config set`, `config unset`, `keys setup`). The whole change is one settings update under
// the settings lock, checked once against the values about to be written: a key's id and its private key's place
// set together are refused or written together, so no profile is left naming one key's id and another key's file
// because a second command was refused or never ran.
//
// What the check refuses: a change of the key of a profile whose rotation is in progress (its --resume and --abort
// find the rotation by the profile's key, and would no longer find it), a profile pointed at a key a rotation in
// progress may delete (its old key, or its new one if it is undone), or at a key that trident is deleting or has
// deleted. Every command that deletes a key looks at the profiles, and notes its delete, under the same lock.
import { usageError } from '../../core/errors.js';
import type { ProfileValues } from '../../core/files/settings-file.js';
import type { SettingKey, SettingsStore } from '../../core/files/settings.js';
import { inProgressError, journalOfProfile } from '../rotation/journal.js';
import { keyClaims } from './claims.js';

/** The settings whose change is checked here. */
const KEY_SETTINGS: readonly string[] = ['keys.keyId', 'keys.privateKeyFile'];

/** Settings of one profile to set (a string) or remove (undefined). */
export type ProfileChanges = Partial<Record<SettingKey, string | undefined>>;

/**
 * Writes `changes` to `profile` in one update; when they touch the profile's key, the ledger checks the values
 * they leave, under the settings lock, and a refusal writes nothing.
 */
export async function changeProfile(store: SettingsStore, profile: string, changes: ProfileChanges): Promise<void> {
  const touchesKey = Object.keys(changes).some((setting) => KEY_SETTINGS.includes(setting));
  await store.update(profile, changes, touchesKey ? (next) => checkKeyOf(store.dir, profile, next) : undefined);
}

function checkKeyOf(configDir: string, profile: string, next: Readonly<ProfileValues>): void {
  const own = journalOfProfile(configDir, profile);
  if (own) throw inProgressError(own.path, own.journal);
  const keyId = next['keys.keyId'];
  if (keyId === undefined) return;
  for (const claim of keyClaims(configDir, keyId, { profile })) {
    if (claim.kind === 'rotation') throw inProgressError(claim.path, claim.journal);
    if (claim.kind === 'deleting')
      throw usageError(`key ${keyId} ${claim.why}`, 'point the profile at a key the service still has: trident keys list shows them');
  }
}
