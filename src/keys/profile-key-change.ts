// What a person changing a profile's key by hand (`config set` or `config unset` of keys.keyId or
// keys.privateKeyFile) must not do: change the key of a profile whose rotation is in progress (its --resume and
// --abort find the rotation by the profile's key, and would no longer find it), point the profile at a key a
// rotation in progress may delete (its old key, or its new one if it is undone), or at a key that keys prune is
// deleting or has deleted. Checked under the settings lock, with the values about to be
// written: keys prune holds the same lock while it makes sure no profile uses a key and journals its delete.
import type { ProfileValues } from '../core/files/settings-file.js';
import { refuseKeyBeingDeleted } from './overlap/records.js';
import { inProgressError, journalOfProfile, journalsOfKey } from './rotation/journal.js';

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
    const keyId = next['keys.keyId'];
    const rotation = journalOfProfile(configDir, profile) ?? (keyId === undefined ? undefined : journalsOfKey(configDir, keyId)[0]);
    if (rotation) throw inProgressError(rotation.path, rotation.journal);
    refuseKeyBeingDeleted(configDir, keyId);
  };
}
