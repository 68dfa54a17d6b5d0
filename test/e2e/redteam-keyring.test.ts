// Red-team findings on the keyring: a move removes the old place of the profile's key only when no other profile
// still names that place, so that two profiles sharing one key file or keyring entry both keep signing; and a key
// bound for the keyring by a killed generate is never deleted by a settlement that could not ask the keyring; and a
// prune or a rotation that cannot reach an old key's entry fails with exit 4 and keeps its record or journal, not
// as a bug.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import { keyExists, keysNamed, pendingFiles, runKeys } from '../helpers/keys-sandbox.js';
import { CRASH_ENV } from '../../src/keys/crash-points.js';
import { dirAccount, dirReference, KEYRING_TOOLS } from '../helpers/keyring-session.js';
import { describeWithTools } from '../helpers/system-tools.js';
import { useKeysSandbox, useKeyringSession } from '../helpers/per-suite.js';

const sandbox = useKeysSandbox();

describeWithTools(KEYRING_TOOLS, 'a move of a key that another profile shares', () => {
  const keyring = useKeyringSession();

  const env = () => ({ ...keyring.env, TRIDENT_KEYS_URL: sandbox.url });

  /** Profile default and profile "twin" both use one new key, kept in a file. */
  async function sharedKey(configDir: string): Promise<{ id: string; file: string }> {
    const made = await runKeys(sandbox, ['generate', '--name', 'shared', '--use', '-o', 'json'], {
      configDir,
      env: { ...keyring.env, TRIDENT_CREDENTIAL_STORE: 'file' },
    });
    expect(made.exitCode, made.stderr).toBe(0);
    const { api_key: id, private_key_file: file } = JSON.parse(made.stdout);
    const path = join(configDir, 'settings.json');
    const settings = JSON.parse(readFileSync(path, 'utf8'));
    settings.profiles.twin = { ...settings.profiles.default };
    writeFileSync(path, JSON.stringify(settings), { mode: 0o600 });
    return { id, file };
  }

  const listAs = (configDir: string, profile: string) =>
    runCli(['--profile', profile, 'keys', 'list', '-o', 'json'], { configDir, env: env() });

  it('move-to-keyring leaves the key file another profile names; move-to-file leaves the entry another profile names', async () => {
    const configDir = tempConfigDir();
    const { id, file } = await sharedKey(configDir);

    const toKeyring = await runCli(['keys', 'move-to-keyring', '-o', 'json'], { configDir, env: env() });
    expect(toKeyring.exitCode, toKeyring.stderr).toBe(0);
    expect(JSON.parse(toKeyring.stdout)).toMatchObject({ api_key: id, from: file, removed: false });
    expect(toKeyring.stderr).toBe(
      `profile "default" now keeps key ${id} in ${dirReference(configDir, `keys/${id}`)}; ${file} stays: profile "twin" still uses it\n`,
    );
    expect(existsSync(file)).toBe(true);
    const twin = await listAs(configDir, 'twin');
    expect(twin.exitCode, twin.stderr).toBe(0);

    // Now both profiles name the keyring entry; moving one of them back to a file keeps the entry.
    const twinToKeyring = await runCli(['--profile', 'twin', 'keys', 'move-to-keyring'], { configDir, env: env() });
    expect(twinToKeyring.exitCode, twinToKeyring.stderr).toBe(0);
    const out = join(configDir, 'elsewhere.pem');
    const toFile = await runCli(['keys', 'move-to-file', '--out', out, '-o', 'json'], { configDir, env: env() });
    expect(toFile.exitCode, toFile.stderr).toBe(0);
    expect(JSON.parse(toFile.stdout)).toMatchObject({ api_key: id, removed: false });
    expect(keyring.lookup(dirAccount(configDir, `keys/${id}`))).toBeDefined();
    const after = await listAs(configDir, 'twin');
    expect(after.exitCode, after.stderr).toBe(0);
  });
});

describeWithTools(KEYRING_TOOLS, 'a key stored in the keyring by a killed generate, settled while the keyring cannot be asked', () => {
  const keyring = useKeyringSession();

  it('keys list with no D-Bus session keeps the key and its record; the next one with the keyring keeps it for good', async () => {
    const configDir = tempConfigDir();
    const killed = await runKeys(sandbox, ['generate', '--name', 'stored-then-killed'], {
      configDir,
      env: { ...keyring.env, [CRASH_ENV]: 'stored' },
    });
    expect(killed.exitCode).not.toBe(0);
    const [made] = keysNamed(sandbox, 'stored-then-killed');
    expect(keyring.lookup(dirAccount(configDir, `keys/${made!.api_key}`))).toMatch(/PRIVATE KEY-----/);

    // Over ssh, say: no session bus, so the keyring cannot be asked whether it holds the key.
    const blind = await runKeys(sandbox, ['list'], { configDir, env: { ...keyring.env, DBUS_SESSION_BUS_ADDRESS: undefined } });
    expect(keyExists(sandbox, made!.api_key)).toBe(true);
    expect(pendingFiles(configDir)).toHaveLength(1);
    expect(blind.stderr).toContain(
      `not settled yet (cannot tell whether ${dirReference(configDir, `keys/${made!.api_key}`)} holds the key's private half: `,
    );
    expect(blind.stderr).not.toMatch(/deleted key/);

    const listed = await runKeys(sandbox, ['list'], { configDir, env: keyring.env });
    expect(listed.exitCode, listed.stderr).toBe(0);
    expect(listed.stderr).toContain(`kept key ${made!.api_key}, its private key in ${dirReference(configDir, `keys/${made!.api_key}`)}`);
    expect(keyExists(sandbox, made!.api_key)).toBe(true);
    expect(pendingFiles(configDir)).toEqual([]);
  });
});

describeWithTools(KEYRING_TOOLS, 'keys prune of a kept key whose keyring entry cannot be reached', () => {
  const keyring = useKeyringSession();

  const env = () => ({ ...keyring.env, TRIDENT_KEYS_URL: sandbox.url });

  it('the key deleted, exit 4 naming the entry (not a bug), the record kept; the next prune with the keyring removes both', async () => {
    const configDir = tempConfigDir();
    const made = await runKeys(sandbox, ['generate', '--name', 'kept-in-keyring', '--use', '-o', 'json'], { configDir, env: keyring.env });
    expect(made.exitCode, made.stderr).toBe(0);
    const old = JSON.parse(made.stdout).api_key;
    const rotated = await runCli(['keys', 'rotate', '--yes', '--keep-old-for', '1h'], { configDir, env: env() });
    expect(rotated.exitCode, rotated.stderr).toBe(0);
    // The new key signs from a file, so that the prune can sign without the keyring.
    expect((await runCli(['keys', 'move-to-file'], { configDir, env: env() })).exitCode).toBe(0);
    const record = join(configDir, 'overlap', `${old}.json`);
    const due = { ...JSON.parse(readFileSync(record, 'utf8')), kept_until: new Date(Date.now() - 60_000).toISOString() };
    writeFileSync(record, JSON.stringify(due), { mode: 0o600 });

    const blind = await runCli(['keys', 'prune', '-o', 'json'], { configDir, env: { ...env(), DBUS_SESSION_BUS_ADDRESS: undefined } });
    expect(blind.exitCode).toBe(4);
    expect(blind.stderr).not.toMatch(/bug/);
    expect(blind.stderr).toContain(
      `trident: key ${old} was deleted, but its keyring entry ${dirReference(configDir, `keys/${old}`)} could not be removed`,
    );
    expect(JSON.parse(blind.stdout)).toMatchObject([{ api_key: old, result: 'failed' }]);
    expect(keyExists(sandbox, old)).toBe(false);
    expect(existsSync(record)).toBe(true);

    const again = await runCli(['keys', 'prune', '-o', 'json'], { configDir, env: env() });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject([{ api_key: old, result: 'already deleted' }]);
    expect(keyring.lookup(dirAccount(configDir, `keys/${old}`))).toBeUndefined();
    expect(existsSync(record)).toBe(false);
  }, 60_000);

  it('rotate --resume after the old key was deleted, the keyring out of reach: exit 4 (not a bug), the journal kept; resumed with it, done', async () => {
    const configDir = tempConfigDir();
    const made = await runKeys(sandbox, ['generate', '--name', 'resumed-blind', '--use', '-o', 'json'], { configDir, env: keyring.env });
    expect(made.exitCode, made.stderr).toBe(0);
    const old = JSON.parse(made.stdout).api_key;
    const killed = await runCli(['keys', 'rotate', '--yes'], { configDir, env: { ...env(), [CRASH_ENV]: 'old-deleted' } });
    expect(killed.exitCode).not.toBe(0);
    expect(keyExists(sandbox, old)).toBe(false);

    const blind = await runCli(['keys', 'rotate', '--resume', '--yes'], {
      configDir,
      env: { ...env(), DBUS_SESSION_BUS_ADDRESS: undefined },
    });
    expect(blind.exitCode).toBe(4);
    expect(blind.stderr).not.toMatch(/bug/);
    expect(blind.stderr).toContain(
      `trident: the old key is deleted, but its keyring entry ${dirReference(configDir, `keys/${old}`)} could not be removed`,
    );
    expect(existsSync(join(configDir, 'rotations', `key-${old}.json`))).toBe(true);

    const resumed = await runCli(['keys', 'rotate', '--resume', '--yes', '-o', 'json'], { configDir, env: env() });
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout).outcome).toBe('rotated');
    expect(keyring.lookup(dirAccount(configDir, `keys/${old}`))).toBeUndefined();
  }, 60_000);
});
