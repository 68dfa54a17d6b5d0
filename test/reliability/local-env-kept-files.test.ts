// Files trident keeps in its config dir (key files in keys/, key-ages.json, stored tokens in tokens/) are read
// only if nobody else could have put them there: no link, not another user's, not writable by others, and
// the same for the directories on the way. Otherwise exit 2 naming the path, before anything is sent.
// TRIDENT_INSECURE_CONFIG=1 lets them through.
import { chmodSync, chownSync, mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { untagged } from '../../src/keys/mint/tag.js';
import { SANDBOX_TIME_USER } from '../../src/sandbox/time/server.js';
import { envFor, errorOf, trident, useServices } from './harness.js';
import { allRequestsFrom, configWithStoredToken, copyOfKey, scratchDir } from './local-env-helpers.js';

const services = useServices(['keys', 'time']);
const INSECURE = { TRIDENT_INSECURE_CONFIG: '1' };
const OTHER_UID = 4242;

const FILE_LINK_HINT =
  'replace the link with the file itself (trident replaces the file when it writes it), or set TRIDENT_INSECURE_CONFIG=1';
const DIR_LINK_HINT = 'replace the link with the directory itself, or set TRIDENT_INSECURE_CONFIG=1';
const chmodHint = (path: string) => `run: chmod go-w ${path} (or set TRIDENT_INSECURE_CONFIG=1 to use it anyway)`;
const OWNER_HINT = 'make it yours (chown) or use your own, or set TRIDENT_INSECURE_CONFIG=1';

interface KeysConfig {
  configDir: string;
  keysDir: string;
  keyFile: string;
  agesFile: string;
}

/** A profile signing with a key kept in `<config dir>/keys/`, as `keys generate --use` leaves it, and a key ages file. */
function keysConfig(): KeysConfig {
  const configDir = join(scratchDir(), 'config');
  const keysDir = join(configDir, 'keys');
  mkdirSync(keysDir, { recursive: true, mode: 0o700 });
  const keyFile = copyOfKey(services, keysDir);
  const { keyId } = services.keys.bootstrap;
  const settings = { profiles: { default: { 'keys.url': services.keys.url, 'keys.keyId': keyId, 'keys.privateKeyFile': keyFile } } };
  writeFileSync(join(configDir, 'settings.json'), JSON.stringify(settings), { mode: 0o600 });
  const agesFile = join(configDir, 'key-ages.json');
  writeFileSync(agesFile, JSON.stringify({ [keyId]: { since: '2020-01-01T00:00:00.000Z', how: 'made' } }), { mode: 0o600 });
  return { configDir, keysDir, keyFile, agesFile };
}

/** Moves `path` to a private directory elsewhere and leaves a link to it in its place. */
function replaceWithLink(path: string): void {
  const elsewhere = join(scratchDir(), 'elsewhere');
  renameSync(path, elsewhere);
  symlinkSync(elsewhere, path);
}

async function run(args: string[], configDir: string, env: Record<string, string> = {}) {
  const sent = allRequestsFrom(services);
  const result = await trident(args, { configDir, env });
  return { result, sent: sent() };
}

describe('a key file and key ages kept in the config dir', () => {
  const cases: Array<{ name: string; spoil(config: KeysConfig): { message: string; hint: string } }> = [
    {
      name: 'keys/ group-writable (770)',
      spoil: ({ keysDir }) => (
        chmodSync(keysDir, 0o770),
        { message: `directory ${keysDir} can be written by other users (mode 770): refused`, hint: chmodHint(keysDir) }
      ),
    },
    {
      name: 'keys/ a link to a directory elsewhere',
      spoil: ({ keysDir }) => (
        replaceWithLink(keysDir),
        { message: `directory ${keysDir} is a symbolic link: refused`, hint: DIR_LINK_HINT }
      ),
    },
    {
      name: 'the key file a link to a file elsewhere',
      spoil: ({ keyFile }) => (
        replaceWithLink(keyFile),
        { message: `private key file ${keyFile} is a symbolic link: refused`, hint: FILE_LINK_HINT }
      ),
    },
    {
      name: 'key-ages.json a link to a file elsewhere',
      spoil: ({ agesFile }) => (
        replaceWithLink(agesFile),
        { message: `key ages file ${agesFile} is a symbolic link: refused`, hint: FILE_LINK_HINT }
      ),
    },
    {
      name: 'key-ages.json group-writable (660)',
      spoil: ({ agesFile }) => (
        chmodSync(agesFile, 0o660),
        { message: `key ages file ${agesFile} can be written by other users (mode 660): refused`, hint: chmodHint(agesFile) }
      ),
    },
    {
      name: 'key-ages.json owned by another user',
      spoil: ({ agesFile }) => (
        chownSync(agesFile, OTHER_UID, OTHER_UID),
        { message: `key ages file ${agesFile} belongs to another user (uid ${OTHER_UID}): refused`, hint: OWNER_HINT }
      ),
    },
  ];

  it.each(cases)('$name: keys list exits 2 naming it, nothing sent; TRIDENT_INSECURE_CONFIG=1 lets it through', async ({ spoil }) => {
    const config = keysConfig();
    const expected = spoil(config);
    const { result, sent } = await run(['keys', 'list', '-o', 'json'], config.configDir);
    expect(result.exitCode, result.stderr).toBe(2);
    expect(errorOf(result)).toEqual(expected);
    expect(sent).toEqual([]);

    const insecure = await run(['keys', 'list', '-o', 'json'], config.configDir, INSECURE);
    expect(insecure.result.exitCode, insecure.result.stderr).toBe(0);
    expect(insecure.sent).toEqual(['GET /trade-api/v2/api_keys']);
  });

  it('as trident leaves them, they are used: the profile signs with the kept key', async () => {
    const { configDir } = keysConfig();
    const { result } = await run(['keys', 'list', '-o', 'json'], configDir);
    expect(result.exitCode, result.stderr).toBe(0);
    const listed = JSON.parse(result.stdout) as Array<{ api_key: string; in_use: boolean }>;
    expect(listed.find((key) => key.in_use)?.api_key).toBe(services.keys.bootstrap.keyId);
  });
});

describe('writing where trident could not read back', () => {
  it('keys generate into a keys/ that is a link: exit 2 naming it before the request, nothing minted', async () => {
    const configDir = join(scratchDir(), 'config');
    const keysDir = join(configDir, 'keys');
    mkdirSync(keysDir, { recursive: true, mode: 0o700 });
    replaceWithLink(keysDir);
    const { result, sent } = await run(['keys', 'generate', '--name', 'through-a-link'], configDir, envFor.keys(services));
    expect(result.exitCode, result.stderr).toBe(2);
    expect(errorOf(result)).toEqual({ message: `directory ${keysDir} is a symbolic link: refused`, hint: DIR_LINK_HINT });
    expect(sent).toEqual([]);
    expect(services.keys.control.listKeys().some((key) => untagged(key.name) === 'through-a-link')).toBe(false);
  });

  it('time login into a tokens/ that is a link: exit 2 naming it before the request', async () => {
    const configDir = join(scratchDir(), 'config');
    const tokensDir = join(configDir, 'tokens');
    mkdirSync(tokensDir, { recursive: true, mode: 0o700 });
    replaceWithLink(tokensDir);
    const sent = allRequestsFrom(services);
    const result = await trident(['time', 'login', '--email', SANDBOX_TIME_USER.email, '--password-stdin'], {
      configDir,
      env: envFor.timeServer(services),
      input: `${SANDBOX_TIME_USER.password}\n`,
    });
    expect(result.exitCode, result.stderr).toBe(2);
    expect(errorOf(result)).toEqual({ message: `directory ${tokensDir} is a symbolic link: refused`, hint: DIR_LINK_HINT });
    expect(sent()).toEqual([]);
  });
});

describe('a stored token kept in the config dir', () => {
  it('tokens/ a link to a directory elsewhere: time projects exits 2 naming it, nothing sent; TRIDENT_INSECURE_CONFIG=1 lets it through', async () => {
    const configDir = join(scratchDir(), 'config');
    const { tokenFile } = configWithStoredToken(services, configDir);
    const env = envFor.timeServer(services);
    const tokensDir = join(tokenFile, '..');
    replaceWithLink(tokensDir);
    const { result, sent } = await run(['time', 'projects'], configDir, env);
    expect(result.exitCode, result.stderr).toBe(2);
    expect(errorOf(result)).toEqual({ message: `directory ${tokensDir} is a symbolic link: refused`, hint: DIR_LINK_HINT });
    expect(sent).toEqual([]);

    const insecure = await run(['time', 'projects'], configDir, { ...env, ...INSECURE });
    expect(insecure.result.exitCode, insecure.result.stderr).toBe(0);
    expect(insecure.sent).toEqual(['GET /api/v1/projects']);
  });
});
