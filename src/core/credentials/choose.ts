// Where a new credential goes. TRIDENT_CREDENTIAL_STORE or the setting credentialStore says keyring or file;
// auto (the default) means file when CI is set, else the OS keyring if one takes a write within the deadline,
// else a file: that fallback is announced once per config dir, as a note on stderr, and then kept quiet.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TridentError, ExitCode } from '../errors.js';
import { ensurePrivateDir } from '../files/private-dir.js';
import type { Settings } from '../files/settings.js';
import type { Keyring } from './keyring.js';
import { credentialPlaces } from './places.js';

export const CREDENTIAL_STORES = ['auto', 'keyring', 'file'] as const;
export type CredentialStoreKind = 'keyring' | 'file';

export interface StoreChoiceInput {
  /** The setting's value (auto when unset) and where it came from, as a message names it. */
  value: string | undefined;
  origin: string;
  env: NodeJS.ProcessEnv;
  keyring: Keyring;
  configDir: string;
  warn(message: string): void;
}

const isSet = (value: string | undefined) => !['', 'false', '0', undefined].includes(value?.toLowerCase());

const NOTICE_FILE = 'credential-store-notice';

export function chooseCredentialStore(input: StoreChoiceInput): CredentialStoreKind {
  const value = input.value ?? 'auto';
  if (value === 'file') return 'file';
  if (value === 'keyring') {
    const reason = input.keyring.unusable();
    if (reason === undefined) return 'keyring';
    throw new TridentError(ExitCode.usage, `${input.origin} asks for the OS keyring, but it cannot be used: ${reason}`, {
      hint: 'unlock or start the keyring, or choose files: TRIDENT_CREDENTIAL_STORE=file',
    });
  }
  if (isSet(input.env.CI)) return 'file';
  const reason = input.keyring.unusable();
  if (reason === undefined) return 'keyring';
  announceOnce(input, reason);
  return 'file';
}

function announceOnce(input: StoreChoiceInput, reason: string): void {
  const marker = join(input.configDir, NOTICE_FILE);
  if (existsSync(marker)) return;
  input.warn(
    `no OS keyring could be used (${reason}): credentials go to 0600 files in ${input.configDir}; TRIDENT_CREDENTIAL_STORE=file says so without this note`,
  );
  try {
    ensurePrivateDir(input.configDir);
    writeFileSync(marker, `${reason}\n`, { mode: 0o600 });
  } catch {
    // The note comes again next time: nothing else depends on the marker.
  }
}

/** Whether new credentials may have gone to the keyring under this setting, without asking the keyring. */
export function mayChooseKeyring(ctx: Pick<CredentialContext, 'env' | 'settings'>): boolean {
  const value = ctx.settings.resolve('credentialStore').value ?? 'auto';
  return value === 'keyring' || (value === 'auto' && !isSet(ctx.env.CI));
}

/** What choosing needs of a command's Context (which core does not import). */
export interface CredentialContext {
  env: NodeJS.ProcessEnv;
  configDir: string;
  settings: Settings;
  log: { warn(message: string): void };
}

const chosen = new WeakMap<CredentialContext, CredentialStoreKind>();

/** Where this command puts new credentials: decided once per command (the keyring may be probed). */
export function credentialStore(ctx: CredentialContext): CredentialStoreKind {
  let kind = chosen.get(ctx);
  if (kind === undefined) {
    const setting = ctx.settings.resolve('credentialStore');
    kind = chooseCredentialStore({
      value: setting.value,
      origin: ctx.settings.origin(setting, 'credentialStore'),
      env: ctx.env,
      keyring: credentialPlaces(ctx.env).keyring,
      configDir: ctx.configDir,
      warn: (message) => ctx.log.warn(message),
    });
    chosen.set(ctx, kind);
  }
  return kind;
}
