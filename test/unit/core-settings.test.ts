import { mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Settings, SettingsStore, configDir } from '../../src/core/settings.js';

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
});

describe('writing settings', () => {
  it('a settings directory that cannot be one is a usage error (exit 2), not a bug', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'trident-settings-')), 'a-file');
    writeFileSync(file, '');
    const error = await new SettingsStore(file).update('default', { output: 'json' }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ exitCode: 2, message: `cannot write the settings in ${file}: EEXIST` });
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
