// The settings file's JSON (<config dir>/settings.json): a default profile's name and the profiles, each a map of
// setting keys to strings. A file of any other shape is refused with what is wrong in it, never half read.
import { usageError } from '../errors.js';
import { isSettingKey, type SettingKey } from './setting-keys.js';

export const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

export type ProfileValues = Partial<Record<SettingKey, string>>;
export interface SettingsFile {
  /** The profile used when neither --profile nor TRIDENT_PROFILE names one (`trident config use`). */
  profile?: string;
  profiles?: Record<string, ProfileValues>;
}

/** The settings file's JSON, refused (exit 2) unless it is an object of profiles holding strings. */
export function parseSettings(text: string, path: string): SettingsFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw usageError(`cannot read settings ${path}: ${(error as Error).message}`, 'fix or remove the file');
  }
  const problem = settingsProblem(parsed);
  if (problem) throw usageError(`cannot read settings ${path}: ${problem}`, 'fix or remove the file');
  return parsed as SettingsFile;
}

function settingsProblem(parsed: unknown): string | undefined {
  if (!isRecord(parsed)) return `expected a JSON object, found ${kindOf(parsed)}`;
  if (parsed.profile !== undefined && (typeof parsed.profile !== 'string' || !PROFILE_NAME.test(parsed.profile))) {
    return `"profile" must be the name of a profile, found ${typeof parsed.profile === 'string' ? JSON.stringify(parsed.profile) : kindOf(parsed.profile)}`;
  }
  if (parsed.profiles === undefined) return undefined;
  if (!isRecord(parsed.profiles)) return `"profiles" must be an object, found ${kindOf(parsed.profiles)}`;
  for (const [name, values] of Object.entries(parsed.profiles)) {
    if (!isRecord(values)) return `profile "${name}" must be an object, found ${kindOf(values)}`;
    for (const [key, value] of Object.entries(values)) {
      if (isSettingKey(key) && typeof value !== 'string') return `${key} of profile "${name}" must be a string, found ${kindOf(value)}`;
    }
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
