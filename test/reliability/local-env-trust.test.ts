// Files others can write: a config directory, settings.json, a token or key file (or their directories)
// that another user could have written, or that belongs to one, is refused with exit 2 and a chmod hint, as
// ssh's StrictModes does — before anything is sent, and without "fixing" it on disk. TRIDENT_INSECURE_CONFIG=1
// lets it through. Files trident keeps itself must not be symlinks; files a user names may be, if the target
// passes the same checks.
import { chmodSync, chownSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { envFor, errorOf, trident, useServices } from './harness.js';
import { allRequestsFrom, configWithStoredToken, copyOfKey, scratchDir } from './local-env-helpers.js';
import { untagged } from '../../src/keys/mint/tag.js';

const services = useServices(['keys', 'time']);
const INSECURE = { TRIDENT_INSECURE_CONFIG: '1' };
const OTHER_UID = 4242;

const mode = (path: string) => (statSync(path).mode & 0o7777).toString(8);
const writable = (path: string, bits: string) => `${path} can be written by other users (mode ${bits}): refused`;
const chmodHint = (path: string) => `run: chmod go-w ${path} (or set TRIDENT_INSECURE_CONFIG=1 to use it anyway)`;

/** A config dir whose settings point the time group at the sandbox, with a stored working token. */
function timeConfig(): { configDir: string; settingsFile: string; tokenFile: string } {
  const configDir = join(scratchDir(), 'config');
  const { tokenFile } = configWithStoredToken(services, configDir);
  const settingsFile = join(configDir, 'settings.json');
  writeFileSync(settingsFile, JSON.stringify({ profiles: { default: { 'time.url': services.time.url, caFile: services.time.caFile } } }), {
    mode: 0o600,
  });
  return { configDir, settingsFile, tokenFile };
}

async function timeProjects(configDir: string, env: Record<string, string> = {}) {
  const sent = allRequestsFrom(services);
  const result = await trident(['time', 'projects'], { configDir, env });
  return { result, sent: sent() };
}

describe('settings, config dir and stored token that others could have written', () => {
  const cases: Array<{
    name: string;
    spoil(paths: ReturnType<typeof timeConfig>): { path: string; message: string; hint: string; mode?: string };
  }> = [
    {
      name: 'config directory mode 777',
      spoil: ({ configDir }) => (
        chmodSync(configDir, 0o777),
        { path: configDir, message: `config directory ${writable(configDir, '777')}`, hint: chmodHint(configDir), mode: '777' }
      ),
    },
    {
      name: 'config directory group-writable (770)',
      spoil: ({ configDir }) => (
        chmodSync(configDir, 0o770),
        { path: configDir, message: `config directory ${writable(configDir, '770')}`, hint: chmodHint(configDir), mode: '770' }
      ),
    },
    {
      name: 'settings.json mode 666',
      spoil: ({ settingsFile }) => (
        chmodSync(settingsFile, 0o666),
        { path: settingsFile, message: `settings file ${writable(settingsFile, '666')}`, hint: chmodHint(settingsFile), mode: '666' }
      ),
    },
    {
      name: 'settings.json group-writable (620)',
      spoil: ({ settingsFile }) => (
        chmodSync(settingsFile, 0o620),
        { path: settingsFile, message: `settings file ${writable(settingsFile, '620')}`, hint: chmodHint(settingsFile), mode: '620' }
      ),
    },
    {
      name: 'settings.json owned by another user',
      spoil: ({ settingsFile }) => (
        chownSync(settingsFile, OTHER_UID, OTHER_UID),
        {
          path: settingsFile,
          message: `settings file ${settingsFile} belongs to another user (uid ${OTHER_UID}): refused`,
          hint: 'make it yours (chown) or use your own, or set TRIDENT_INSECURE_CONFIG=1',
        }
      ),
    },
    {
      name: 'tokens directory mode 777',
      spoil: ({ tokenFile }) => {
        const dir = join(tokenFile, '..');
        chmodSync(dir, 0o777);
        return { path: dir, message: `directory ${writable(dir, '777')}`, hint: chmodHint(dir), mode: '777' };
      },
    },
    {
      name: 'stored token mode 666',
      spoil: ({ tokenFile }) => (
        chmodSync(tokenFile, 0o666),
        { path: tokenFile, message: `token file ${writable(tokenFile, '666')}`, hint: chmodHint(tokenFile), mode: '666' }
      ),
    },
    {
      name: 'stored token owned by another user',
      spoil: ({ tokenFile }) => (
        chownSync(tokenFile, OTHER_UID, OTHER_UID),
        {
          path: tokenFile,
          message: `token file ${tokenFile} belongs to another user (uid ${OTHER_UID}): refused`,
          hint: 'make it yours (chown) or use your own, or set TRIDENT_INSECURE_CONFIG=1',
        }
      ),
    },
  ];

  it.each(cases)(
    '$name: exit 2 with a chmod hint, nothing sent, the mode left as it was; TRIDENT_INSECURE_CONFIG=1 lets it through',
    async ({ spoil }) => {
      const paths = timeConfig();
      const spoilt = spoil(paths);
      const { result, sent } = await timeProjects(paths.configDir);
      expect(result.exitCode, result.stderr).toBe(2);
      expect(errorOf(result)).toEqual({ message: spoilt.message, hint: spoilt.hint });
      expect(sent).toEqual([]);
      if (spoilt.mode) expect(mode(spoilt.path)).toBe(spoilt.mode);

      const insecure = await timeProjects(paths.configDir, INSECURE);
      expect(insecure.result.exitCode, insecure.result.stderr).toBe(0);
      expect(insecure.sent).toEqual(['GET /api/v1/projects']);
    },
  );

  it('config set does not write through a settings file others can write (the file is left as it was)', async () => {
    const { configDir, settingsFile } = timeConfig();
    chmodSync(settingsFile, 0o646);
    const before = readFileSync(settingsFile, 'utf8');
    const result = await trident(['config', 'set', 'time.url', 'https://attacker.example/api/v1'], { configDir });
    expect(result.exitCode).toBe(2);
    expect(errorOf(result).message).toBe(`settings file ${writable(settingsFile, '646')}`);
    expect(readFileSync(settingsFile, 'utf8')).toBe(before);
    expect(mode(settingsFile)).toBe('646');
  });

  it('a symlinked settings.json or stored token is refused, whatever it points at', async () => {
    for (const which of ['settings', 'token'] as const) {
      const paths = timeConfig();
      const link = which === 'settings' ? paths.settingsFile : paths.tokenFile;
      const target = join(scratchDir(), 'elsewhere.json');
      writeFileSync(target, readFileSync(link), { mode: 0o600 });
      rmSync(link);
      symlinkSync(target, link);
      const { result, sent } = await timeProjects(paths.configDir);
      expect(result.exitCode, result.stderr).toBe(2);
      expect(errorOf(result)).toEqual({
        message: `${which === 'settings' ? 'settings file' : 'token file'} ${link} is a symbolic link: refused`,
        hint: 'replace the link with the file itself (trident replaces the file when it writes it), or set TRIDENT_INSECURE_CONFIG=1',
      });
      expect(sent).toEqual([]);
    }
  });

  it('a sticky shared directory (like /tmp) is not "writable by others": a config dir inside one works', async () => {
    const shared = scratchDir(0o1777);
    const configDir = join(shared, 'config');
    configWithStoredToken(services, configDir);
    const { result, sent } = await timeProjects(configDir, envFor.timeServer(services));
    expect(result.exitCode, result.stderr).toBe(0);
    expect(sent).toEqual(['GET /api/v1/projects']);
  });
});

describe('token and key files named by the user', () => {
  function tokenFileIn(dir: string): string {
    const file = join(dir, 'token');
    writeFileSync(file, `${services.time.control.issueToken('trident-cli')}\n`, { mode: 0o600 });
    return file;
  }

  async function withTokenFile(file: string, env: Record<string, string> = {}) {
    const sent = allRequestsFrom(services);
    const result = await trident(['time', 'projects', '--token-file', file], { env: { ...envFor.timeServer(services), ...env } });
    return { result, sent: sent() };
  }

  it('--token-file: refused mode 666, in a 777 directory, or owned by another user; fine in a sticky directory', async () => {
    const loose = tokenFileIn(scratchDir());
    chmodSync(loose, 0o666);
    const looseRun = await withTokenFile(loose);
    expect(looseRun.result.exitCode).toBe(2);
    expect(errorOf(looseRun.result)).toEqual({ message: `token file ${writable(loose, '666')}`, hint: chmodHint(loose) });
    expect(looseRun.sent).toEqual([]);

    const openDir = scratchDir(0o777);
    const inOpenDir = tokenFileIn(openDir);
    const openRun = await withTokenFile(inOpenDir);
    expect(openRun.result.exitCode).toBe(2);
    expect(errorOf(openRun.result).message).toBe(`directory ${writable(openDir, '777')}`);
    expect(openRun.sent).toEqual([]);

    const foreign = tokenFileIn(scratchDir());
    chownSync(foreign, OTHER_UID, OTHER_UID);
    expect((await withTokenFile(foreign)).result.exitCode).toBe(2);
    expect((await withTokenFile(foreign, INSECURE)).result.exitCode).toBe(0);

    const sticky = await withTokenFile(tokenFileIn(scratchDir(0o1777)));
    expect(sticky.result.exitCode, sticky.result.stderr).toBe(0);
    expect(sticky.sent).toEqual(['GET /api/v1/projects']);
  });

  it('--token-file through a symlink: followed when the target passes, refused when it does not', async () => {
    const good = tokenFileIn(scratchDir());
    const links = scratchDir();
    symlinkSync(good, join(links, 'good'));
    const followed = await withTokenFile(join(links, 'good'));
    expect(followed.result.exitCode, followed.result.stderr).toBe(0);

    const bad = tokenFileIn(scratchDir());
    chmodSync(bad, 0o646);
    symlinkSync(bad, join(links, 'bad'));
    const refused = await withTokenFile(join(links, 'bad'));
    expect(refused.result.exitCode).toBe(2);
    expect(errorOf(refused.result).message).toBe(`token file (through ${join(links, 'bad')}) ${writable(bad, '646')}`);
    expect(refused.sent).toEqual([]);
  });

  it('private key files: refused mode 666, group-writable, in a 777 directory or owned by another user; nothing is signed or sent', async () => {
    const spoilers: Array<(file: string) => string> = [
      (file) => (chmodSync(file, 0o666), `private key file ${writable(file, '666')}`),
      (file) => (chmodSync(file, 0o620), `private key file ${writable(file, '620')}`),
      (file) => (chmodSync(join(file, '..'), 0o777), `directory ${writable(join(file, '..'), '777')}`),
      (file) => (chownSync(file, OTHER_UID, OTHER_UID), `private key file ${file} belongs to another user (uid ${OTHER_UID}): refused`),
    ];
    for (const spoil of spoilers) {
      const key = copyOfKey(services, scratchDir());
      const message = spoil(key);
      const sent = allRequestsFrom(services);
      const result = await trident(['keys', 'list', '--private-key', key], { env: envFor.keys(services) });
      expect(result.exitCode, result.stderr).toBe(2);
      expect(errorOf(result).message).toBe(message);
      expect(sent()).toEqual([]);
      const insecure = await trident(['keys', 'list', '--private-key', key, '-o', 'json'], {
        env: { ...envFor.keys(services), ...INSECURE },
      });
      expect(insecure.exitCode, insecure.stderr).toBe(0);
    }
  });

  it('keys generate --out into a directory others can write is refused before the request', async () => {
    const openDir = scratchDir(0o777);
    const sent = allRequestsFrom(services);
    const result = await trident(['keys', 'generate', '--name', 'loose-dir', '--out', join(openDir, 'new.pem')], {
      env: envFor.keys(services),
    });
    expect(result.exitCode, result.stderr).toBe(2);
    expect(errorOf(result).message).toBe(`directory ${writable(openDir, '777')}`);
    expect(sent()).toEqual([]);
    expect(services.keys.control.listKeys().some((key) => untagged(key.name) === 'loose-dir')).toBe(false);
  });

  it("a key directory of trident's own, made by hand with mode 777, is refused too", async () => {
    const configDir = join(scratchDir(), 'config');
    mkdirSync(join(configDir, 'keys'), { recursive: true, mode: 0o700 });
    chmodSync(join(configDir, 'keys'), 0o777);
    const sent = allRequestsFrom(services);
    const result = await trident(['keys', 'generate', '--name', 'loose-keys-dir'], { configDir, env: envFor.keys(services) });
    expect(result.exitCode, result.stderr).toBe(2);
    expect(errorOf(result).message).toBe(`directory ${writable(join(configDir, 'keys'), '777')}`);
    expect(sent()).toEqual([]);
  });
});
