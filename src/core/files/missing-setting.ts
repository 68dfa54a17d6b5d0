// A setting a command cannot do without: missing, it is a usage error (or the exit code the caller names)
// with a hint on how to set it. One missing from a profile that does not exist says so; one that another profile
// has names that profile, for the commonest slip: the sandbox's profile is not the default one.
import { ExitCode, TridentError } from '../errors.js';
import type { SettingKey } from './setting-keys.js';
import type { SettingsStore } from './settings.js';

class MissingSetting extends TridentError {
  constructor(
    /** Any one of them would do. */
    readonly settings: readonly SettingKey[],
    exitCode: ExitCode,
    message: string,
    hint: string,
  ) {
    super(exitCode, message, { hint });
  }
}

/** None of `settings` is set, and one is needed: the error that explainMissingSetting can point elsewhere. */
export function missingSettingError(settings: readonly SettingKey[], exitCode: ExitCode, message: string, hint: string): TridentError {
  return new MissingSetting(settings, exitCode, message, hint);
}

/** For commands: a required setting, or exit with a hint on how to set it. */
export function requireSetting(
  setting: { key: SettingKey; value: string | undefined },
  what: string,
  hint: string,
  exitCode: ExitCode = ExitCode.usage,
): string {
  if (setting.value === undefined || setting.value === '') throw new MissingSetting([setting.key], exitCode, `no ${what} configured`, hint);
  return setting.value;
}

/**
 * A setting is missing: because the chosen profile does not exist (most likely a misspelt --profile or
 * TRIDENT_PROFILE), or while other profiles have it. Say so, and name those profiles. Other errors pass through
 * unchanged.
 */
export function explainMissingSetting(error: unknown, profile: string, store: Pick<SettingsStore, 'profiles' | 'get'>): unknown {
  if (!(error instanceof MissingSetting)) return error;
  const profiles = store.profiles();
  if (profile !== 'default' && !profiles.includes(profile)) {
    const known = profiles.length > 0 ? `profiles are: ${profiles.join(', ')}` : 'no profile is saved yet';
    return new TridentError(error.exitCode, `${error.message}: profile "${profile}" does not exist`, {
      hint: `${known}; pick one with --profile, or set this one up (${error.hint})`,
    });
  }
  const having = profiles.filter((name) => name !== profile && error.settings.some((key) => store.get(name, key) !== undefined));
  if (having.length === 0) return error;
  const [first] = having;
  const what = error.settings.length === 1 ? error.settings[0] : `one of ${error.settings.join(', ')}`;
  return new TridentError(error.exitCode, `${error.message} in profile "${profile}"`, {
    hint: `${having.length === 1 ? `profile "${first}" has` : `profiles ${having.join(', ')} have`} ${what}: add --profile ${first}, or make it the default with: trident config use ${first}`,
  });
}
