// A config dir with one profile written straight into its settings file, as `trident config set` would leave
// it: quicker than a process per setting when a test sets up many profiles.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function writeSettings(configDir: string, profile: string, values: Record<string, string>): void {
  writeProfiles(configDir, { [profile]: values });
}

export function writeProfiles(configDir: string, profiles: Record<string, Record<string, string>>): void {
  mkdirSync(configDir, { recursive: true, mode: 0o700 });
  writeFileSync(join(configDir, 'settings.json'), JSON.stringify({ profiles }), { mode: 0o600 });
}
