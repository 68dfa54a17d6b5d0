// trident keys setup against the keys sandbox: a key made "on the website" (added to the sandbox) is proved
// with one signed request, stored where trident keeps keys and bound to the profile; a wrong pair, an unknown
// id, a missing value without a terminal and a paused rotation write nothing, and say so.
import { generateKeyPairSync } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CRASH_ENV } from '../../src/keys/crash-points.js';
import { runCli, tempConfigDir, type CliOptions } from '../helpers/cli.js';
import { fileMode, requestsFrom } from '../helpers/keys-sandbox.js';
import { profileWithKey, rotate, ROTATE_JSON } from '../helpers/keys-rotation.js';
import { useKeysSandbox } from '../helpers/per-suite.js';

const sandbox = useKeysSandbox();
const FILE_STORE = { TRIDENT_CREDENTIAL_STORE: 'file' };

/** A key made on the exchange's website: its id, and the private key file it gave (the sandbox's bootstrap PEM). */
function keyFromWebsite(name: string): { id: string; file: string } {
  const id = sandbox.control.addKey({ name, publicKeyPem: sandbox.bootstrap.publicKeyPem, scopes: ['read', 'write'] }).api_key;
  return { id, file: sandbox.bootstrap.privateKeyFile };
}

const setup = (args: string[], options: CliOptions = {}) =>
  runCli(['keys', 'setup', ...args], { ...options, env: { ...FILE_STORE, ...options.env } });

const profileOf = (configDir: string, profile = 'default') =>
  existsSync(join(configDir, 'settings.json'))
    ? (JSON.parse(readFileSync(join(configDir, 'settings.json'), 'utf8')).profiles?.[profile] ?? {})
    : {};

describe('keys setup', () => {
  it('proves the pair with one signed GET, stores the key 0600 in the config dir, and the profile then works alone', async () => {
    const configDir = tempConfigDir();
    const { id, file } = keyFromWebsite('from-website');
    const sent = requestsFrom(sandbox);
    const result = await setup(['--url', sandbox.url, '--key-id', id, '--private-key', file, '-o', 'json'], { configDir });
    expect(result.exitCode, result.stderr).toBe(0);
    const stored = join(configDir, 'keys', `${id}.pem`);
    expect(JSON.parse(result.stdout)).toEqual({
      profile: 'default',
      api_key: id,
      name: 'from-website',
      scopes: ['read', 'write'],
      url: sandbox.url,
      private_key_file: stored,
    });
    expect(result.stderr).toContain(`profile "default" now uses key ${id} (${stored})`);
    expect(sent()).toEqual([{ method: 'GET', path: '/trade-api/v2/api_keys' }]);
    expect(profileOf(configDir)).toEqual({ 'keys.url': sandbox.url, 'keys.keyId': id, 'keys.privateKeyFile': stored });
    expect(readFileSync(stored, 'utf8')).toBe(readFileSync(file, 'utf8'));
    expect(fileMode(stored)).toBe(0o600);
    expect(existsSync(file)).toBe(true);

    const listed = await runCli(['keys', 'list', '-o', 'json'], { configDir });
    expect(listed.exitCode, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout).map((key: { api_key: string }) => key.api_key)).toContain(id);
  });

  it('reads the PEM from stdin with --private-key -, into a named profile', async () => {
    const configDir = tempConfigDir();
    const { id, file } = keyFromWebsite('from-stdin');
    const result = await runCli(['--profile', 'ci', 'keys', 'setup', '--url', sandbox.url, '--key-id', id, '--private-key', '-'], {
      configDir,
      input: readFileSync(file, 'utf8'),
      env: FILE_STORE,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(profileOf(configDir, 'ci')['keys.keyId']).toBe(id);
  });

  it('a private key that is not the key’s: exit 4, nothing stored and no profile written', async () => {
    const configDir = tempConfigDir();
    const { id } = keyFromWebsite('wrong-pair');
    const other = join(tempConfigDir(), '..', 'other.pem');
    writeFileSync(other, generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }), {
      mode: 0o600,
    });
    const sent = requestsFrom(sandbox);
    const result = await setup(['--url', sandbox.url, '--key-id', id, '--private-key', other], { configDir });
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toMatch(new RegExp(`^trident: the keys service did not accept key ${id} with this private key: `));
    expect(result.stderr).toContain('nothing was stored');
    expect(sent().map((request) => request.method)).toEqual(['GET']);
    expect(existsSync(join(configDir, 'keys'))).toBe(false);
    expect(profileOf(configDir)).toEqual({});
  });

  it('a private key file others can write is refused (exit 2) before anything is sent or stored', async () => {
    const configDir = tempConfigDir();
    const { id, file } = keyFromWebsite('writable-by-others');
    const open = join(mkdtempSync(join(tmpdir(), 'trident-setup-')), 'key.pem');
    copyFileSync(file, open);
    chmodSync(open, 0o666);
    const sent = requestsFrom(sandbox);
    const result = await setup(['--url', sandbox.url, '--key-id', id, '--private-key', open], { configDir });
    expect(result.exitCode).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(`trident: private key file ${open} can be written by other users (mode 666): refused`);
    expect(sent()).toEqual([]);
    expect(existsSync(join(configDir, 'keys', `${id}.pem`))).toBe(false);
    expect(profileOf(configDir)).toEqual({});
  });

  it('without a terminal, a missing --key-id is exit 2 naming the flag and the sandbox, with nothing sent', async () => {
    const configDir = tempConfigDir();
    const sent = requestsFrom(sandbox);
    const result = await setup(['--url', sandbox.url, '--private-key', sandbox.bootstrap.privateKeyFile], { configDir });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(
      'trident: --key-id is needed: there is no terminal to ask on\nhint: pass --key-id; to try trident on local services first: trident sandbox\n',
    );
    expect(sent()).toEqual([]);
    expect(profileOf(configDir)).toEqual({});
  });

  it('refused (exit 2) while a rotation of the profile is paused: the key stored for it is removed again', async () => {
    const paused = profileWithKey(sandbox);
    const crashed = await rotate(paused, ROTATE_JSON, { env: { [CRASH_ENV]: 'switched' } });
    expect(crashed.exitCode).not.toBe(0);
    const before = profileOf(paused.configDir, paused.profile);
    const { id, file } = keyFromWebsite('during-rotation');
    const result = await runCli(
      ['--profile', paused.profile, 'keys', 'setup', '--url', sandbox.url, '--key-id', id, '--private-key', file],
      { configDir: paused.configDir, env: FILE_STORE },
    );
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/--resume/);
    expect(profileOf(paused.configDir, paused.profile)).toEqual(before);
    expect(existsSync(join(paused.configDir, 'keys', `${id}.pem`))).toBe(false);
  });

  it('a missing keys setting names keys setup and the sandbox', async () => {
    const result = await runCli(['keys', 'list'], { configDir: tempConfigDir() });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('hint: run: trident keys setup (or pass --url');
    expect(result.stderr).toContain('to try trident on local services first: trident sandbox');
  });
});
