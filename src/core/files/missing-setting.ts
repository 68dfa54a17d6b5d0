// A setting a command cannot do without: missing, it is a usage error (or the exit code the caller names)
// with a hint on how to set it, and one from a profile that does not exist says so.
import { ExitCode, TridentError } from '../errors.js';
import type { SettingsStore } from './settings.js';

const MISSING_SETTING = 'MISSING_SETTING';

/** For commands: a required setting, or exit with a hint on how to set it. */
export function requireSetting(value: string | undefined, what: string, hint: string, exitCode: ExitCode = ExitCode.usage): string {
  if (value === undefined || value === '') throw new TridentError(exitCode, `no ${what} configured`, { hint, code: MISSING_SETTING });
  return value;
}

/**
 * A setting is missing because the chosen profile does not exist (most likely a misspelt --profile or
 * TRIDENT_PROFILE): say so, and name the profiles there are. Other errors pass through unchanged.
 */
export function explainMissingSetting(error: unknown, profile: string, store: Pick<SettingsStore, 'profiles'>): unknown {
  if (!(error instanceof TridentError) || error.code !== MISSING_SETTING) return error;
  const profiles = store.profiles();
  if (profile === 'default' || profiles.includes(profile)) return error;
  const known = profiles.length > 0 ? `profiles are: ${profiles.join(', ')}` : 'no profile is saved yet';
  return new TridentError(error.exitCode, `${error.message}: profile "${profile}" does not exist`, {
    hint: `${known}; pick one with --profile, or set this one up (${error.hint})`,
    code: MISSING_SETTING,
  });
}
