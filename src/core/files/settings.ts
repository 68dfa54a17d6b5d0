// Profiles and the precedence flag > env > profile > default, with the source of every value.
// Reads parse the JSON file directly (start-up cost matters in cron); writes go through conf, which
// writes atomically, with the file at 0600 and the directory at 0700.
import { AsyncLocalStorage } from 'node:async_hooks';
import { userInfo } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { TridentError, usageError } from '../errors.js';
import { readConfigFile } from './config-files.js';
import { assertTrustedDir } from './file-trust.js';
import { fileSystemFailure } from './file-system-failure.js';
import { ensurePrivateDir } from './private-dir.js';
import { PROFILE_NAME, parseSettings, type ProfileValues, type SettingsFile } from './settings-file.js';
import {
  SETTING_KEYS,
  SETTINGS,
  assertSettingKey,
  validateValue,
  type ResolvedSetting,
  type SettingKey,
  type SettingSpec,
} from './setting-keys.js';

export { SETTINGS, SETTING_KEYS, assertSettingKey, isSettingKey, validateValue } from './setting-keys.js';
export type { ResolvedSetting, SettingKey, SettingSource } from './setting-keys.js';

const SETTINGS_FILE = 'settings.json';

export function assertProfileName(name: string): string {
  if (!PROFILE_NAME.test(name)) {
    throw usageError(`invalid profile name "${name}": use letters, digits, "-" and "_"`);
  }
  return name;
}

/**
 * `$TRIDENT_CONFIG_DIR`, else `$XDG_CONFIG_HOME/trident`, else `~/.config/trident`. A relative
 * XDG_CONFIG_HOME or HOME is ignored, as XDG's own rule is: keys and tokens must not land in whatever
 * directory a CI job runs in; the home directory then comes from the user database. A relative
 * TRIDENT_CONFIG_DIR is refused rather than ignored: it was set for trident alone, and a cron job started
 * elsewhere would silently read another config (and another rotation journal).
 */
export function configDir(env: NodeJS.ProcessEnv): string {
  const own = env.TRIDENT_CONFIG_DIR;
  if (own) {
    if (!isAbsolute(own))
      throw usageError(
        `TRIDENT_CONFIG_DIR "${own}" is a relative path: it would name another directory wherever trident is started`,
        'give an absolute path, one starting with "/", e.g. TRIDENT_CONFIG_DIR="$HOME/.config/trident"',
      );
    return own;
  }
  const absolute = (path: string | undefined) => (path && isAbsolute(path) ? path : undefined);
  const base = absolute(env.XDG_CONFIG_HOME) ?? join(absolute(env.HOME) ?? userHome(), '.config');
  return join(base, 'trident');
}

/** The home directory from the user database (os.homedir() would return $HOME as it is, even relative). */
function userHome(): string {
  try {
    return userInfo().homedir;
  } catch {
    throw usageError(
      'no home directory to keep settings in: HOME is empty or relative and the user has none',
      'set TRIDENT_CONFIG_DIR to an absolute path',
    );
  }
}

/**
 * The settings files whose lock the code running now holds (in this process): a change made, or a lock asked for,
 * inside whileLocked runs under the lock it already has instead of waiting for itself.
 */
const lockedHere = new AsyncLocalStorage<ReadonlySet<string>>();

/** The settings file: every profile's stored values. */
export class SettingsStore {
  readonly path: string;
  private cache: SettingsFile | undefined;

  constructor(readonly dir: string) {
    this.path = join(dir, SETTINGS_FILE);
  }

  /** The file as stored, after checking that only its owner can have written it and that it has the right shape. */
  private read(): SettingsFile {
    if (!this.cache) {
      let text: string | undefined;
      try {
        text = readConfigFile(this.dir, this.path, 'settings file');
      } catch (error) {
        if (error instanceof TridentError) throw error;
        throw usageError(
          `cannot read settings ${this.path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
          'check the file and its directory',
        );
      }
      this.cache = text === undefined ? {} : parseSettings(text, this.path);
    }
    return this.cache;
  }

  hasProfile(profile: string): boolean {
    return Object.hasOwn(this.read().profiles ?? {}, profile);
  }

  profiles(): string[] {
    return Object.keys(this.read().profiles ?? {}).sort();
  }

  /** The profile `trident config use` made the default, if any. */
  defaultProfile(): string | undefined {
    return this.read().profile;
  }

  /** Makes `profile` the default; `default` goes back to the profile of that name. Refused for an unknown profile. */
  async useProfile(profile: string): Promise<void> {
    assertProfileName(profile);
    await this.change((file) => {
      if (profile !== 'default' && !Object.hasOwn(file.profiles, profile)) {
        const known = Object.keys(file.profiles).sort();
        throw usageError(
          `no profile "${profile}" in ${this.path}`,
          known.length > 0
            ? `profiles are: ${known.join(', ')}`
            : `set one up first: trident --profile ${profile} config set <key> <value>`,
        );
      }
      if (profile === 'default') delete file.profile;
      else file.profile = profile;
      return true;
    });
  }

  values(profile: string): ProfileValues {
    return { ...this.read().profiles?.[profile] };
  }

  get(profile: string, key: SettingKey): string | undefined {
    return this.read().profiles?.[profile]?.[key];
  }

  /**
   * Sets and unsets several values of one profile in one atomic write (undefined unsets). `check` sees the
   * profile's values as they are about to be written, under the lock: what it throws stops the write.
   */
  async update(
    profile: string,
    changes: Partial<Record<SettingKey, string | undefined>>,
    check?: (next: Readonly<ProfileValues>) => void,
  ): Promise<void> {
    assertProfileName(profile);
    for (const [key, value] of Object.entries(changes)) {
      if (value !== undefined) validateValue(assertSettingKey(key), value);
    }
    await this.change(({ profiles }) => {
      const next: ProfileValues = { ...profiles[profile] };
      for (const [key, value] of Object.entries(changes) as Array<[SettingKey, string | undefined]>) {
        if (value === undefined) delete next[key];
        else next[key] = value;
      }
      check?.(next);
      profiles[profile] = next;
      return true;
    });
  }

  async removeProfile(profile: string): Promise<boolean> {
    if (!this.read().profiles?.[profile]) return false;
    return this.change((file) => {
      delete file.profiles[profile];
      // A default profile that is gone is no default: the profile called default is again.
      if (file.profile === profile) delete file.profile;
      return true;
    });
  }

  /**
   * Every change reads, changes and writes the whole file: under the settings lock, so that two trident processes
   * writing at once (a rotation switching its profile and a `config set` in another shell) both keep their change.
   * `mutate` returns whether it changed anything.
   */
  private async change(mutate: (file: SettingsFile & { profiles: Record<string, ProfileValues> }) => boolean): Promise<boolean> {
    const { default: Conf } = await import('conf');
    try {
      return await this.whileLocked(() => {
        this.cache = undefined;
        // Checked under the lock: a broken or foreign file is never rewritten.
        this.read();
        const conf = new Conf<SettingsFile>({
          cwd: this.dir,
          configName: SETTINGS_FILE.replace(/\.json$/, ''),
          configFileMode: 0o600,
          accessPropertiesByDotNotation: false,
        });
        const file = { ...conf.store, profiles: { ...conf.get('profiles') } };
        const changed = mutate(file);
        if (changed) {
          conf.set('profiles', file.profiles);
          if (file.profile === undefined) conf.delete('profile');
          else conf.set('profile', file.profile);
        }
        return changed;
      });
    } catch (error) {
      if (error instanceof TridentError) throw error;
      throw fileSystemFailure(error, this.path) ?? error;
    } finally {
      this.cache = undefined;
    }
  }

  /**
   * Runs `work` under the settings lock (the pid lock `settings.json.lock`): no trident changes
   * the settings meanwhile, so what `work` reads of them (afresh, with a store of its own) stays true until it
   * returns. keys prune makes sure no profile uses a key, and journals its delete, within one such stretch. The
   * store's own changes inside `work` are made under the same lock.
   */
  async whileLocked<T>(work: () => T | Promise<T>): Promise<T> {
    if (lockedHere.getStore()?.has(this.path)) return work();
    const { withLock, LockHeld } = await import('./settings-lock.js');
    const file = join(this.dir, SETTINGS_FILE);
    assertTrustedDir(this.dir, 'config directory');
    ensurePrivateDir(this.dir);
    try {
      return await withLock(file, async () => {
        // What this store read before the lock was taken may be stale by now.
        this.cache = undefined;
        return lockedHere.run(new Set([...(lockedHere.getStore() ?? []), this.path]), work);
      });
    } catch (error) {
      if (error instanceof LockHeld)
        throw usageError(`the settings in ${this.dir} stay locked by another trident`, `if none is running, remove ${file}.lock`);
      throw error;
    }
  }
}

/** The effective settings of one invocation: flags, then environment, then the profile, then defaults. */
export class Settings {
  constructor(
    readonly store: SettingsStore,
    readonly profile: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly flags: Partial<Record<SettingKey, string>> = {},
  ) {}

  /** `flag` is the value of the command's own option for this setting, if it has one. */
  resolve(key: SettingKey, flag?: string): ResolvedSetting {
    const spec: SettingSpec = SETTINGS[key];
    const fromFlag = flag ?? this.flags[key];
    if (fromFlag !== undefined) return { key, value: fromFlag, source: 'flag' };
    const fromEnv = spec.env ? this.env[spec.env] : undefined;
    if (fromEnv) return { key, value: fromEnv, source: 'env' };
    const fromProfile = this.store.get(this.profile, key);
    if (fromProfile !== undefined) return { key, value: fromProfile, source: 'profile' };
    if (spec.default !== undefined) return { key, value: spec.default, source: 'default' };
    return { key, value: undefined, source: undefined };
  }

  get(key: SettingKey, flag?: string): string | undefined {
    return this.resolve(key, flag).value;
  }

  /** Where a value came from, for messages: `--url`, `TRIDENT_CATALOG_URL` or `catalog.url of profile "p"`. */
  origin(setting: ResolvedSetting, flagName: string): string {
    if (setting.source === 'flag') return flagName;
    if (setting.source === 'env') return (SETTINGS[setting.key] as SettingSpec).env ?? setting.key;
    return `${setting.key} of profile "${this.profile}"`;
  }

  all(): ResolvedSetting[] {
    return SETTING_KEYS.map((key) => this.resolve(key));
  }
}
