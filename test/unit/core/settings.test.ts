import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Settings, SettingsStore, configDir } from '../../../src/core/files/settings.js';
import { onFakeClock } from '../../helpers/fake-clock.js';

const freshDir = () => join(mkdtempSync(join(tmpdir(), 'trident-settings-')), 'cfg');

describe('config dir', () => {
  it('prefers TRIDENT_CONFIG_DIR, then XDG_CONFIG_HOME, then ~/.config', () => {
    expect(configDir({ TRIDENT_CONFIG_DIR: '/a', XDG_CONFIG_HOME: '/b', HOME: '/h' })).toBe('/a');
    expect(configDir({ XDG_CONFIG_HOME: '/b', HOME: '/h' })).toBe('/b/trident');
    expect(configDir({ HOME: '/h' })).toBe('/h/.config/trident');
  });

  it('never lands in the working directory: a relative or empty XDG_CONFIG_HOME or HOME is ignored', () => {
    const home = userInfo().homedir;
    expect(configDir({ XDG_CONFIG_HOME: 'relative/dir', HOME: '/h' })).toBe('/h/.config/trident');
    expect(configDir({ HOME: '' })).toBe(join(home, '.config', 'trident'));
    expect(configDir({ HOME: 'checkout', XDG_CONFIG_HOME: '' })).toBe(join(home, '.config', 'trident'));
  });

  it('refuses a relative TRIDENT_CONFIG_DIR (exit 2) instead of ignoring it: it was set for trident alone', () => {
    for (const value of ['cfg', './cfg', '../cfg', '~/cfg']) {
      expect(() => configDir({ TRIDENT_CONFIG_DIR: value, HOME: '/h' })).toThrow(
        expect.objectContaining({ exitCode: 2, message: expect.stringContaining(`TRIDENT_CONFIG_DIR "${value}" is a relative path`) }),
      );
    }
    expect(configDir({ TRIDENT_CONFIG_DIR: '', HOME: '/h' })).toBe('/h/.config/trident');
  });
});

describe('writing settings', () => {
  it('a settings directory that cannot be one is a usage error (exit 2), not a bug', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'trident-settings-')), 'a-file');
    writeFileSync(file, '');
    const error = await new SettingsStore(file).update('default', { output: 'json' }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ exitCode: 2, message: `cannot write ${join(file, 'settings.json')}: EEXIST` });
  });
});

describe('SettingsStore', () => {
  it('writes the file 0600 in a 0700 directory, whatever the umask', async () => {
    const dir = freshDir();
    const old = process.umask(0o022);
    try {
      await new SettingsStore(dir).update('default', { 'keys.url': 'https://example.test/trade-api/v2' });
    } finally {
      process.umask(old);
    }
    expect(statSync(join(dir, 'settings.json')).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('keeps profiles apart and sets several values in one write', async () => {
    const store = new SettingsStore(freshDir());
    await store.update('a', { 'keys.keyId': 'k1', 'keys.privateKeyFile': '/k1.pem' });
    await store.update('b', { 'keys.keyId': 'k2' });
    await store.update('a', { 'keys.privateKeyFile': undefined });
    expect(store.values('a')).toEqual({ 'keys.keyId': 'k1' });
    expect(store.values('b')).toEqual({ 'keys.keyId': 'k2' });
    expect(store.profiles()).toEqual(['a', 'b']);
  });

  it('refuses bad values and profile names before writing', async () => {
    const store = new SettingsStore(freshDir());
    await expect(store.update('default', { output: 'xml' })).rejects.toMatchObject({ exitCode: 2 });
    await expect(store.update('default', { 'catalog.url': 'nope' })).rejects.toMatchObject({ exitCode: 2 });
    await expect(store.update('../x', { output: 'json' })).rejects.toMatchObject({ exitCode: 2 });
    expect(store.profiles()).toEqual([]);
  });

  it('keeps a default profile: only a saved one, back to "default" on request or when that profile is removed', async () => {
    const store = new SettingsStore(freshDir());
    await expect(store.useProfile('sandbox')).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringMatching(/^no profile "sandbox" in /),
    });
    await store.update('sandbox', { 'keys.keyId': 'k1' });
    await store.update('ci', { output: 'json' });
    await store.useProfile('sandbox');
    expect(store.defaultProfile()).toBe('sandbox');
    expect(JSON.parse(readFileSync(store.path, 'utf8'))).toMatchObject({ profile: 'sandbox' });
    // A later change of values keeps the default.
    await store.update('ci', { output: 'csv' });
    expect(store.defaultProfile()).toBe('sandbox');
    await store.useProfile('default');
    expect(store.defaultProfile()).toBeUndefined();
    await store.useProfile('ci');
    await store.removeProfile('ci');
    expect(store.defaultProfile()).toBeUndefined();
    expect(store.profiles()).toEqual(['sandbox']);
  });

  it('reports a corrupt settings file as a usage error naming it', () => {
    const dir = freshDir();
    mkdirSync(dir, { recursive: true });
    const store = new SettingsStore(dir);
    writeFileSync(store.path, '{not json');
    expect(() => store.profiles()).toThrow(/cannot read settings .*settings\.json/);
  });
});

describe('Settings precedence', () => {
  it('flag > env > profile > default, with the source of each', async () => {
    const store = new SettingsStore(freshDir());
    await store.update('default', { 'keys.url': 'https://profile.test', 'time.userAgent': 'profile-ua' });
    const env = { TRIDENT_KEYS_URL: 'https://env.test' };
    const settings = new Settings(store, 'default', env, { output: 'json' });
    expect(settings.resolve('keys.url', 'https://flag.test')).toEqual({ key: 'keys.url', value: 'https://flag.test', source: 'flag' });
    expect(settings.resolve('keys.url')).toEqual({ key: 'keys.url', value: 'https://env.test', source: 'env' });
    expect(settings.resolve('time.userAgent')).toEqual({ key: 'time.userAgent', value: 'profile-ua', source: 'profile' });
    expect(settings.resolve('time.authScheme')).toEqual({ key: 'time.authScheme', value: 'bearer', source: 'default' });
    expect(settings.resolve('output')).toMatchObject({ value: 'json', source: 'flag' });
    expect(settings.resolve('catalog.url')).toEqual({ key: 'catalog.url', value: undefined, source: undefined });
  });

  it('ignores an empty environment variable', async () => {
    const store = new SettingsStore(freshDir());
    await store.update('default', { 'catalog.url': 'http://127.0.0.1:1' });
    const settings = new Settings(store, 'default', { TRIDENT_CATALOG_URL: '' });
    expect(settings.resolve('catalog.url').source).toBe('profile');
  });
});

describe('settings file shape and trust', () => {
  it('refuses a file that is not an object of profiles holding strings, naming what is wrong (exit 2)', () => {
    const cases: Array<[string, RegExp]> = [
      ['null', /expected a JSON object, found null$/],
      ['[1]', /expected a JSON object, found an array$/],
      ['{"profiles": 3}', /"profiles" must be an object, found a number$/],
      ['{"profiles": {"p": "x"}}', /profile "p" must be an object, found a string$/],
      ['{"profiles": {"p": {"keys.keyId": 7}}}', /keys.keyId of profile "p" must be a string, found a number$/],
      ['{"profile": "../etc"}', /"profile" must be the name of a profile, found "..\/etc"$/],
      ['{"profile": 1}', /"profile" must be the name of a profile, found a number$/],
    ];
    for (const [text, problem] of cases) {
      const dir = freshDir();
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const store = new SettingsStore(dir);
      writeFileSync(store.path, text, { mode: 0o600 });
      let caught: unknown;
      try {
        store.profiles();
      } catch (error) {
        caught = error;
      }
      expect(caught, text).toMatchObject({ exitCode: 2, hint: 'fix or remove the file' });
      expect((caught as Error).message, text).toMatch(problem);
    }
  });

  it('refuses a URL setting that is not http(s), keeping the old message for one that does not parse', async () => {
    const store = new SettingsStore(freshDir());
    await expect(store.update('default', { 'keys.url': 'ftp://x' })).rejects.toMatchObject({
      exitCode: 2,
      message: 'invalid URL "ftp://x" for keys.url: expected an http:// or https:// URL',
    });
    await expect(store.update('default', { 'time.url': 'nope' })).rejects.toMatchObject({
      exitCode: 2,
      message: 'invalid URL "nope" for time.url',
    });
    await store.update('default', { 'catalog.url': 'http://127.0.0.1:1' });
    expect(store.hasProfile('default')).toBe(true);
    expect(store.hasProfile('other')).toBe(false);
  });

  it('refuses a settings file others can write, a symlinked one, and one that is no regular file (a FIFO)', () => {
    const dir = freshDir();
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const store = new SettingsStore(dir);
    writeFileSync(store.path, '{}', { mode: 0o600 });
    chmodSync(store.path, 0o606);
    expect(() => store.profiles()).toThrow(`settings file ${store.path} can be written by other users (mode 606): refused`);
    const linked = new SettingsStore(freshDir());
    mkdirSync(linked.dir, { recursive: true, mode: 0o700 });
    symlinkSync(store.path, linked.path);
    expect(() => linked.profiles()).toThrow(`settings file ${linked.path} is a symbolic link: refused`);
    const fifo = new SettingsStore(freshDir());
    mkdirSync(fifo.dir, { recursive: true, mode: 0o700 });
    spawnSync('mkfifo', [fifo.path]);
    expect(() => fifo.profiles()).toThrow(`settings file ${fifo.path} is not a regular file: refused`);
  });
});

describe('the lock an older release left (a directory with a pid file), on a fake clock', () => {
  // What a settings write loads lazily.
  beforeAll(() => Promise.all([import('conf'), import('../../../src/core/files/settings-lock.js')]));

  it('takes over a lock whose holder is dead at once, and removes lock and pid after the write', async () => {
    const dir = freshDir();
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const store = new SettingsStore(dir);
    mkdirSync(`${store.path}.lock`);
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    writeFileSync(join(`${store.path}.lock`, 'pid'), `${dead}\n`);
    const { outcome, ms } = await onFakeClock(() => store.update('default', { output: 'json' }));
    expect(outcome.status, String((outcome as PromiseRejectedResult).reason)).toBe('fulfilled');
    expect(ms).toBe(0);
    expect(store.values('default')).toEqual({ output: 'json' });
    expect(existsSync(`${store.path}.lock`)).toBe(false);
  });

  function storeWithEmptySettings(): SettingsStore {
    const dir = freshDir();
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const store = new SettingsStore(dir);
    writeFileSync(store.path, '{}', { mode: 0o600 });
    return store;
  }

  it('a lock without a pid (holder unknown) is waited for until it goes stale (10 s): the retries outlast that', async () => {
    const store = storeWithEmptySettings();
    mkdirSync(`${store.path}.lock`);
    const { outcome, ms } = await onFakeClock(() => store.update('default', { output: 'csv' }));
    expect(outcome.status, String((outcome as PromiseRejectedResult).reason)).toBe('fulfilled');
    expect(ms).toBeGreaterThan(9_000);
    expect(ms).toBeLessThan(20_000);
    expect(JSON.parse(readFileSync(store.path, 'utf8'))).toEqual({ profiles: { default: { output: 'csv' } } });
    expect(existsSync(`${store.path}.lock`)).toBe(false);
  });

  it('a lock held by a live process (its pid, kept fresh) is not taken: exit 2 naming the lock after the wait (20 s)', async () => {
    const store = storeWithEmptySettings();
    const lock = `${store.path}.lock`;
    mkdirSync(lock);
    // A live process other than this one: vitest's own.
    writeFileSync(join(lock, 'pid'), `${process.ppid}\n`);
    const { outcome, ms } = await onFakeClock(async () => {
      const fresh = setInterval(() => utimesSync(lock, new Date(), new Date()), 1_000);
      try {
        return await store.update('default', { output: 'csv' });
      } finally {
        clearInterval(fresh);
      }
    });
    expect(outcome.status).toBe('rejected');
    expect((outcome as PromiseRejectedResult).reason).toMatchObject({
      exitCode: 2,
      message: `the settings in ${store.dir} stay locked by another trident`,
      hint: `if none is running, remove ${lock}`,
    });
    expect(ms).toBeGreaterThanOrEqual(20_000);
    expect(readFileSync(store.path, 'utf8')).toBe('{}');
    expect(existsSync(lock)).toBe(true);
  });
});

describe('the settings lock is a pid lock', () => {
  beforeAll(() => Promise.all([import('conf'), import('../../../src/core/files/settings-lock.js')]));

  function storeWithEmptySettings(): SettingsStore {
    const dir = freshDir();
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const store = new SettingsStore(dir);
    writeFileSync(store.path, '{}', { mode: 0o600 });
    return store;
  }

  it('names its holder while held, and is gone after', async () => {
    const store = storeWithEmptySettings();
    const seen = await store.whileLocked(() => readFileSync(`${store.path}.lock`, 'utf8'));
    expect(seen.split(' ')[0]).toBe(String(process.pid));
    expect(existsSync(`${store.path}.lock`)).toBe(false);
  });

  it.each([
    ['a dead process', () => `${spawnSync(process.execPath, ['-e', '0']).pid!}\n`],
    ['a live process started at another time (its pid reused)', () => `${process.ppid} 1\n`],
    ['no process', () => '\n'],
  ])('held by %s, it is taken over at once', async (_, holder) => {
    const store = storeWithEmptySettings();
    writeFileSync(`${store.path}.lock`, holder(), { mode: 0o600 });
    const { outcome, ms } = await onFakeClock(() => store.update('default', { output: 'json' }));
    expect(outcome.status, String((outcome as PromiseRejectedResult).reason)).toBe('fulfilled');
    expect(ms).toBe(0);
    expect(store.values('default')).toEqual({ output: 'json' });
    expect(existsSync(`${store.path}.lock`)).toBe(false);
  });

  it('held by a live process, it is waited for (20 s), then exit 2 naming the lock, the settings untouched', async () => {
    const store = storeWithEmptySettings();
    const lock = `${store.path}.lock`;
    writeFileSync(lock, `${process.ppid}\n`, { mode: 0o600 });
    const { outcome, ms } = await onFakeClock(() => store.update('default', { output: 'csv' }));
    expect(outcome.status).toBe('rejected');
    expect((outcome as PromiseRejectedResult).reason).toMatchObject({
      exitCode: 2,
      message: `the settings in ${store.dir} stay locked by another trident`,
      hint: `if none is running, remove ${lock}`,
    });
    expect(ms).toBeGreaterThanOrEqual(20_000);
    expect(readFileSync(store.path, 'utf8')).toBe('{}');
    expect(readFileSync(lock, 'utf8')).toBe(`${process.ppid}\n`);
  });

  it('let go by its live holder during the wait, it is taken then', async () => {
    const store = storeWithEmptySettings();
    const lock = `${store.path}.lock`;
    writeFileSync(lock, `${process.ppid}\n`, { mode: 0o600 });
    const { outcome, ms } = await onFakeClock(async () => {
      const letGo = setTimeout(() => rmSync(lock), 3_000);
      try {
        return await store.update('default', { output: 'tsv' });
      } finally {
        clearTimeout(letGo);
      }
    });
    expect(outcome.status, String((outcome as PromiseRejectedResult).reason)).toBe('fulfilled');
    expect(ms).toBeGreaterThanOrEqual(3_000);
    expect(ms).toBeLessThan(20_000);
    expect(store.values('default')).toEqual({ output: 'tsv' });
  });
});

describe('the settings lock', () => {
  it('a change, or another store of the same dir, inside whileLocked runs under the lock already held', async () => {
    const dir = freshDir();
    const store = new SettingsStore(dir);
    await store.update('a', { 'keys.url': 'https://one.test' });
    const seen = await store.whileLocked(async () => {
      await store.update('a', { 'keys.url': 'https://two.test' });
      await new SettingsStore(dir).whileLocked(() => new SettingsStore(dir).update('b', { 'keys.url': 'https://three.test' }));
      return [store.get('a', 'keys.url'), store.get('b', 'keys.url')];
    });
    expect(seen).toEqual(['https://two.test', 'https://three.test']);
    expect(existsSync(join(dir, 'settings.json.lock'))).toBe(false);
  });

  it('what a store read before the lock is read afresh under it', async () => {
    const dir = freshDir();
    const store = new SettingsStore(dir);
    await store.update('a', { 'keys.keyId': 'before' });
    expect(store.get('a', 'keys.keyId')).toBe('before');
    await new SettingsStore(dir).update('a', { 'keys.keyId': 'meanwhile' });
    expect(await store.whileLocked(() => store.get('a', 'keys.keyId'))).toBe('meanwhile');
  });
});
