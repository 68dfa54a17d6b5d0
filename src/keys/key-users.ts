// Which profiles of the config dir use a key now. The settings are read afresh, not from this process's copy:
// another shell may have pointed a profile at the key since this command started.
import { SettingsStore } from '../core/files/settings.js';

/** The profiles whose keys.keyId is `keyId`, as `profile "name"`, but `except`. */
export function profilesUsing(configDir: string, keyId: string, except?: string): string[] {
  const store = new SettingsStore(configDir);
  return store
    .profiles()
    .filter((profile) => profile !== except && store.get(profile, 'keys.keyId') === keyId)
    .map((profile) => `profile "${profile}"`);
}
