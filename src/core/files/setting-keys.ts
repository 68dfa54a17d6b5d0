// The settings trident knows: their environment variables, defaults, allowed values and descriptions.
import { suggesting } from '../did-you-mean.js';
import { usageError } from '../errors.js';

export interface SettingSpec {
  env?: string;
  default?: string;
  choices?: readonly string[];
  url?: boolean;
  /** Names a URL setting also takes in place of a URL (the service's module says what they stand for). */
  aliases?: readonly string[];
  description: string;
}

export const SETTINGS = {
  'keys.url': {
    env: 'TRIDENT_KEYS_URL',
    url: true,
    aliases: ['production', 'demo'],
    description: "base URL of the key service (…/trade-api/v2), or production or demo for the exchange's environments",
  },
  'keys.keyId': { env: 'TRIDENT_KEY_ID', description: 'id of the key that signs requests' },
  'keys.privateKeyFile': {
    env: 'TRIDENT_PRIVATE_KEY_FILE',
    description: "where that key's private half is: a PEM file, or keyring:<service>/<account> in the OS keyring",
  },
  'time.url': { env: 'TRIDENT_TIME_URL', url: true, description: 'base URL of the time tracker (…/api/v1)' },
  'time.authScheme': {
    default: 'bearer',
    choices: ['bearer', 'raw', 'x-api-token'],
    description: 'how the token is sent',
  },
  'time.tokenLocation': {
    description: 'where time login stored the token: keyring:<service>/<account>, else <config dir>/tokens/<profile>.json',
  },
  'time.userAgent': { default: 'trident-cli', description: 'the one User-Agent sent to the time tracker' },
  'catalog.url': { env: 'TRIDENT_CATALOG_URL', url: true, description: 'base URL of the catalog service' },
  caFile: { env: 'TRIDENT_CA_FILE', description: 'extra CA certificates (PEM), added to the system roots' },
  credentialStore: {
    env: 'TRIDENT_CREDENTIAL_STORE',
    default: 'auto',
    choices: ['auto', 'keyring', 'file'],
    description: 'where new private keys and tokens go: the OS keyring, 0600 files, or auto (the keyring if one answers; files under CI)',
  },
  output: { env: 'TRIDENT_OUTPUT', choices: ['table', 'json', 'ndjson', 'csv', 'tsv'], description: 'default output format' },
} as const satisfies Record<string, SettingSpec>;

export type SettingKey = keyof typeof SETTINGS;
export type SettingSource = 'flag' | 'env' | 'profile' | 'default';
export interface ResolvedSetting {
  key: SettingKey;
  value: string | undefined;
  source: SettingSource | undefined;
}

export const SETTING_KEYS = Object.keys(SETTINGS) as SettingKey[];
export function isSettingKey(key: string): key is SettingKey {
  return Object.hasOwn(SETTINGS, key);
}

export function assertSettingKey(key: string): SettingKey {
  if (!isSettingKey(key)) {
    throw usageError(`unknown setting "${key}"`, suggesting(key, SETTING_KEYS, `settings are: ${SETTING_KEYS.join(', ')}`));
  }
  return key;
}

export function validateValue(key: SettingKey, value: string): void {
  const spec: SettingSpec = SETTINGS[key];
  if (spec.choices && !spec.choices.includes(value)) {
    throw usageError(`invalid value "${value}" for ${key}: expected one of ${spec.choices.join(', ')}`);
  }
  if (!spec.url || spec.aliases?.includes(value.trim().toLowerCase())) return;
  if (!URL.canParse(value)) {
    throw usageError(`invalid URL "${value}" for ${key}`, spec.aliases && `give a URL, or one of ${spec.aliases.join(', ')}`);
  }
  if (!['http:', 'https:'].includes(new URL(value).protocol)) {
    throw usageError(`invalid URL "${value}" for ${key}: expected an http:// or https:// URL`);
  }
}
