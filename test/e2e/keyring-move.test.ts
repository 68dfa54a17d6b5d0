// keys move-to-keyring and move-to-file against a real Secret Service: the round trip, what status and config
// list say, a rotation of a key kept in the keyring, and the moves killed at seeded random moments, after which
// the key must still be where the profile says (and sign requests from there).
import { existsSync, readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { Rng } from '../../src/sandbox/rng.js';
import { runCli, spawnCli, tempConfigDir } from '../helpers/cli.js';
import { PRIVATE_KEY_MATERIAL, fileMode, keyExists, keyFiles, runKeys } from '../helpers/keys-sandbox.js';
import { dirAccount, dirReference, KEYRING_TOOLS } from '../helpers/keyring-session.js';
import { describeWithTools } from '../helpers/system-tools.js';
import { useKeysSandbox, useKeyringSession } from '../helpers/per-suite.js';

const sandbox = useKeysSandbox();

describeWithTools(KEYRING_TOOLS, 'moving a key between the keyring and a file', () => {
  const keyring = useKeyringSession();

  /** The profile's own key and URL only: no key from the environment. */
  const profileEnv = () => ({ ...keyring.env, TRIDENT_KEYS_URL: sandbox.url });

  /** A config dir whose default profile uses a new key kept in a file; returns its id and PEM. */
  async function profileWithFileKey(configDir: string): Promise<{ id: string; pem: string; file: string }> {
    const made = await runKeys(sandbox, ['generate', '--name', 'mover', '--use', '-o', 'json'], {
      configDir,
      env: { ...keyring.env, TRIDENT_CREDENTIAL_STORE: 'file' },
    });
    expect(made.exitCode, made.stderr).toBe(0);
    const { api_key: id, private_key_file: file } = JSON.parse(made.stdout);
    return { id, pem: readFileSync(file, 'utf8'), file };
  }

  const listWithProfile = (configDir: string) => runCli(['keys', 'list', '-o', 'json'], { configDir, env: profileEnv() });

  it('move-to-keyring, then move-to-file: the key is in one place at the end of each, and signs from there', async () => {
    const configDir = tempConfigDir();
    const { id, pem, file } = await profileWithFileKey(configDir);

    const toKeyring = await runCli(['keys', 'move-to-keyring', '-o', 'json'], { configDir, env: profileEnv() });
    expect(toKeyring.exitCode, toKeyring.stderr).toBe(0);
    const reference = dirReference(configDir, `keys/${id}`);
    expect(JSON.parse(toKeyring.stdout)).toEqual({ profile: 'default', api_key: id, from: file, to: reference, removed: true });
    expect(toKeyring.stderr).toBe(`profile "default" now keeps key ${id} in ${reference}\n`);
    expect(keyring.lookup(dirAccount(configDir, `keys/${id}`))).toBe(pem);
    expect(existsSync(file)).toBe(false);
    expect(toKeyring.stdout + toKeyring.stderr).not.toMatch(PRIVATE_KEY_MATERIAL);
    expect((await listWithProfile(configDir)).exitCode).toBe(0);

    // status and config list name the entry, never the key.
    const status = await runCli(['status', '--service', 'keys', '-o', 'json'], { configDir, env: profileEnv() });
    expect(status.exitCode, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout).keys.credential_source).toBe(
      `key id from keys.keyId of profile "default", private key from keyring entry ${reference}`,
    );
    const listed = await runCli(['config', 'list', '-o', 'json'], { configDir, env: profileEnv() });
    expect(listed.stdout).toContain(reference);
    expect(listed.stdout + status.stdout).not.toMatch(PRIVATE_KEY_MATERIAL);

    // Again: nothing to move.
    const again = await runCli(['keys', 'move-to-keyring'], { configDir, env: profileEnv() });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toBe(`the key ${id} of profile "default" is there already (${reference}): nothing to move\n`);

    const toFile = await runCli(['keys', 'move-to-file', '-o', 'json'], { configDir, env: profileEnv() });
    expect(toFile.exitCode, toFile.stderr).toBe(0);
    expect(JSON.parse(toFile.stdout)).toEqual({ profile: 'default', api_key: id, from: reference, to: file, removed: true });
    expect(readFileSync(file, 'utf8')).toBe(pem);
    expect(fileMode(file)).toBe(0o600);
    expect(keyring.lookup(dirAccount(configDir, `keys/${id}`))).toBeUndefined();
    expect((await listWithProfile(configDir)).exitCode).toBe(0);
  });

  it("a key in the entry an earlier release shared by every config dir still signs, and moves out as trident's own", async () => {
    const configDir = tempConfigDir();
    const { id, pem, file } = await profileWithFileKey(configDir);
    keyring.put(`keys/${id}`, pem);
    const shared = `keyring:trident/keys/${id}`;
    expect((await runCli(['config', 'set', 'keys.privateKeyFile', shared], { configDir, env: profileEnv() })).exitCode).toBe(0);
    expect((await runCli(['keys', 'move-to-keyring'], { configDir, env: profileEnv() })).stderr).toContain('nothing to move');
    expect((await listWithProfile(configDir)).exitCode).toBe(0);
    const toFile = await runCli(['keys', 'move-to-file', '-o', 'json'], { configDir, env: profileEnv() });
    expect(toFile.exitCode, toFile.stderr).toBe(0);
    expect(JSON.parse(toFile.stdout)).toEqual({ profile: 'default', api_key: id, from: shared, to: file, removed: true });
    expect(keyring.lookup(`keys/${id}`)).toBeUndefined();
    expect((await listWithProfile(configDir)).exitCode).toBe(0);
  });

  it('move-to-file --out onto a file holding another key: exit 2, nothing changed', async () => {
    const configDir = tempConfigDir();
    const { id } = await profileWithFileKey(configDir);
    expect((await runCli(['keys', 'move-to-keyring'], { configDir, env: profileEnv() })).exitCode).toBe(0);
    const other = sandbox.bootstrap.privateKeyFile;
    const refused = await runCli(['keys', 'move-to-file', '--out', other], { configDir, env: profileEnv() });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toBe(`trident: ${other} exists and holds another key\nhint: remove it, or move the key elsewhere (--out)\n`);
    expect(keyring.lookup(dirAccount(configDir, `keys/${id}`))).toMatch(/PRIVATE KEY/);
    expect((await listWithProfile(configDir)).exitCode).toBe(0);
  });

  it('move-to-keyring with no keyring: exit 2, the file and the profile as they were', async () => {
    const configDir = tempConfigDir();
    const { file, pem } = await profileWithFileKey(configDir);
    const refused = await runCli(['keys', 'move-to-keyring'], { configDir, env: { TRIDENT_KEYS_URL: sandbox.url } });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/^trident: the OS keyring cannot be used: no D-Bus session .+; nothing was moved\nhint: .+\n$/);
    expect(readFileSync(file, 'utf8')).toBe(pem);
    expect((await listWithProfile(configDir)).exitCode).toBe(0);
  });

  it('keys rotate of a key in the keyring: the new key goes to the keyring, the profile follows', async () => {
    const configDir = tempConfigDir();
    const made = await runKeys(sandbox, ['generate', '--name', 'rotated', '--use', '-o', 'json'], { configDir, env: keyring.env });
    expect(made.exitCode, made.stderr).toBe(0);
    const oldId = JSON.parse(made.stdout).api_key;
    const rotated = await runCli(['keys', 'rotate', '--yes', '-o', 'json'], { configDir, env: profileEnv() });
    expect(rotated.exitCode, rotated.stderr).toBe(0);
    const newId = JSON.parse(rotated.stdout).new_key.api_key;
    expect(JSON.parse(rotated.stdout).private_key_file).toBe(`${dirReference(configDir, `keys/${newId}`)}`);
    expect(keyring.lookup(dirAccount(configDir, `keys/${newId}`))).toMatch(/PRIVATE KEY/);
    expect(keyExists(sandbox, oldId)).toBe(false);
    expect(keyFiles(configDir)).toEqual([]);
    expect(rotated.stdout + rotated.stderr).not.toMatch(PRIVATE_KEY_MATERIAL);
    expect((await listWithProfile(configDir)).exitCode).toBe(0);
  }, 60_000);

  it('keys rotate of a key in the keyring whose --verify fails: rolled back, the new entry removed, the old key in use', async () => {
    const configDir = tempConfigDir();
    const made = await runKeys(sandbox, ['generate', '--name', 'rolled', '--use', '-o', 'json'], { configDir, env: keyring.env });
    expect(made.exitCode, made.stderr).toBe(0);
    const oldId = JSON.parse(made.stdout).api_key;
    const eventsBefore = sandbox.control.events().length;
    const rotated = await runCli(['keys', 'rotate', '--yes', '--verify', 'exit 3', '-o', 'json'], { configDir, env: profileEnv() });
    expect(rotated.exitCode).toBe(10);
    expect(rotated.stderr).toMatch(
      /the rotation was rolled back: profile "default" uses the old key .+ again and the new key was deleted\n/,
    );
    const newIds = sandbox.control
      .events()
      .slice(eventsBefore)
      .filter((event) => event.type === 'generate')
      .map((event) => event.id);
    expect(newIds).toHaveLength(1);
    expect(keyExists(sandbox, newIds[0]!)).toBe(false);
    expect(keyring.lookup(dirAccount(configDir, `keys/${newIds[0]}`))).toBeUndefined();
    expect(keyring.lookup(dirAccount(configDir, `keys/${oldId}`))).toMatch(/PRIVATE KEY-----/);
    const listed = await listWithProfile(configDir);
    expect(listed.exitCode, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout).find((key: { in_use: boolean }) => key.in_use).api_key).toBe(oldId);
  }, 60_000);

  it('moves killed at seeded random moments: the profile always names a place that holds the key', async () => {
    const configDir = tempConfigDir();
    const { id, pem, file } = await profileWithFileKey(configDir);
    const random = new Rng(4242);
    let killed = 0;
    for (let round = 0; round < 8; round++) {
      const command = round % 2 === 0 ? 'move-to-keyring' : 'move-to-file';
      const child = spawnCli(['keys', command], { configDir, env: profileEnv() });
      const delay = random.int(20, 400);
      const timer = setTimeout(() => child.kill('SIGKILL'), delay);
      if ((await child).signal === 'SIGKILL') killed += 1;
      clearTimeout(timer);
      const place = (await runCli(['config', 'get', 'keys.privateKeyFile'], { configDir })).stdout.trim();
      const held = place.startsWith('keyring:') ? keyring.lookup(place.slice('keyring:trident/'.length)) : readFileSync(place, 'utf8');
      expect(held, `round ${round} (${command} killed after ${delay} ms): the profile names ${place}`).toBe(pem);
      expect([file, `${dirReference(configDir, `keys/${id}`)}`]).toContain(place);
      const listed = await listWithProfile(configDir);
      expect(listed.exitCode, `round ${round}: ${listed.stderr}`).toBe(0);
    }
    // The moves were really cut short, not only run to their end.
    expect(killed).toBeGreaterThan(0);
  }, 120_000);
});
