// What a person changing a profile's key by hand (`config set` or `config unset` of keys.keyId or
// keys.privateKeyFile) must not do: change the key of a profile whose rotation is in progress (its --resume and
// --abort find the rotation by the profile's key, and would no longer find it), point the profile at a key a
// rotation in progress may delete (its old key, or its new one if it is undone), or at a key that trident is
// deleting or has deleted. Checked under the settings lock, with the values about to be written: every command
// that deletes a key looks at the profiles, and notes its delete, under the same lock.
import { usageError } from '../../core/errors.js';
import type { ProfileValues } from '../../core/files/settings-file.js';
import { inProgressError, journalOfProfile } from '../rotation/journal.js';
import { keyClaims } from './claims.js';

/** The settings whose change is checked here. */
const KEY_SETTINGS: readonly string[] = ['keys.keyId', 'keys.privateKeyFile'];

/** The check for `SettingsStore.update` when `setting` of `profile` is one of its key's; else none. */
export function profileKeyCheck(
  configDir: string,
  profile: string,
  setting: string,
): ((next: Readonly<ProfileValues>) => void) | undefined {
  if (!KEY_SETTINGS.includes(setting)) return undefined;
  return (next) => {
    const own = journalOfProfile(configDir, profile);
    if (own) throw inProgressError(own.path, own.journal);
    const keyId = next['keys.keyId'];
    if (keyId === undefined) return;
    for (const claim of keyClaims(configDir, keyId, { profile })) {
      if (claim.kind === 'rotation') throw inProgressError(claim.path, claim.journal);
      if (claim.kind === 'deleting')
        throw usageError(`key ${keyId} ${claim.why}`, 'point the profile at a key the service still has: trident keys list shows them');
    }
  };
}
