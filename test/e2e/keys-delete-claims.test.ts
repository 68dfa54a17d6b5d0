// keys delete asks the ledger first: a key a profile of the config dir uses, or that a kept key's record names,
// is refused before anything is sent; --force deletes it and names who is left with it; trident's own copy of the
// private half goes with a deleted key, a file of the user's stays; and no profile can be pointed at a key
// while it is being deleted, or after.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import { addKey, keyExists, requestsFrom, runKeys, sandboxEnv } from '../helpers/keys-sandbox.js';
import { useKeysSandbox } from '../helpers/per-suite.js';

const sandbox = useKeysSandbox();

/** A config dir whose profile `profile` uses a new key (in its default file, or in `out`); returns its id and file. */
async function profileWithKey(configDir: string, profile: string, out?: string): Promise<{ id: string; file: string }> {
  const made = await runCli(
    ['--profile', profile, 'keys', 'generate', '--name', profile, '--use', '-o', 'json', ...(out ? ['--out', out] : [])],
    {
      configDir,
      env: { ...sandboxEnv(sandbox), TRIDENT_CREDENTIAL_STORE: 'file' },
    },
  );
  expect(made.exitCode, made.stderr).toBe(0);
  const { api_key: id, private_key_file: file } = JSON.parse(made.stdout);
  return { id, file };
}

/** The profile's own key signs a list. */
const profileSigns = async (configDir: string, profile: string) =>
  (await runCli(['--profile', profile, 'keys', 'list'], { configDir, env: { TRIDENT_KEYS_URL: sandbox.url } })).exitCode;

const deleteAs = (configDir: string, args: string[]) => runKeys(sandbox, ['delete', '--yes', ...args], { configDir });

it('a key another profile uses: refused before anything is sent (exit 2), saying who and how to go on', async () => {
  const configDir = tempConfigDir();
  const { id, file } = await profileWithKey(configDir, 'ci');
  const sent = requestsFrom(sandbox);
  const refused = await deleteAs(configDir, [id]);
  expect(refused.exitCode).toBe(2);
  expect(refused.stderr).toBe(
    `trident: key ${id} is named by profile "ci": deleting it would leave it with a deleted key\n` +
      'hint: point profile "ci" at another key first (trident keys rotate replaces it); or pass --force to delete it anyway\n',
  );
  expect(sent().filter((request) => request.method === 'DELETE')).toEqual([]);
  expect(keyExists(sandbox, id)).toBe(true);
  expect(existsSync(file)).toBe(true);
  expect(await profileSigns(configDir, 'ci')).toBe(0);
});

it("--force deletes it and names the profile left with it; trident's copy of a private half nobody names goes", async () => {
  const configDir = tempConfigDir();
  const { id, file } = await profileWithKey(configDir, 'ci');
  const spare = await runKeys(sandbox, ['generate', '--name', 'spare', '-o', 'json'], {
    configDir,
    env: { TRIDENT_CREDENTIAL_STORE: 'file' },
  });
  expect(spare.exitCode, spare.stderr).toBe(0);
  const { api_key: spareId, private_key_file: spareFile } = JSON.parse(spare.stdout);
  const deleted = await deleteAs(configDir, [spareId]);
  expect(deleted.exitCode, deleted.stderr).toBe(0);
  expect(deleted.stderr).toContain(`removed ${spareFile}, the private key of the deleted key ${spareId}\n`);
  expect(existsSync(spareFile)).toBe(false);

  const forced = await deleteAs(configDir, [id, '--force', '-o', 'json']);
  expect(forced.exitCode, forced.stderr).toBe(0);
  expect(JSON.parse(forced.stdout)).toEqual([{ api_key: id, deleted: true, result: 'deleted' }]);
  expect(forced.stderr).toContain(`warning: deleting key ${id} although profile "ci" still names it (--force)\n`);
  expect(keyExists(sandbox, id)).toBe(false);
  // The profile still names it: it fails as a profile with a deleted key does, not as one with a missing file.
  expect(existsSync(file)).toBe(true);
  const after = await runCli(['--profile', 'ci', 'keys', 'list'], { configDir, env: { TRIDENT_KEYS_URL: sandbox.url } });
  expect(after.exitCode).toBe(4);
  expect(after.stderr).toContain(`key ${id} is unknown to this service`);
});

it("a file of the user's (--out) stays and is named", async () => {
  const configDir = tempConfigDir();
  const out = join(tempConfigDir(), 'mine.pem');
  const { id } = await profileWithKey(configDir, 'ci', out);
  const forced = await deleteAs(configDir, [id, '--force']);
  expect(forced.exitCode, forced.stderr).toBe(0);
  expect(forced.stderr).toContain(`the private key file ${out} of key ${id} is yours and stays: remove it once nothing uses it\n`);
  expect(existsSync(out)).toBe(true);
});

it('a key an overlap keeps for keys prune is refused, naming the record', async () => {
  const configDir = tempConfigDir();
  const { id: old } = await profileWithKey(configDir, 'ci');
  const rotated = await runCli(['--profile', 'ci', 'keys', 'rotate', '--keep-old-for', '1d', '--yes'], {
    configDir,
    env: { TRIDENT_KEYS_URL: sandbox.url, TRIDENT_CREDENTIAL_STORE: 'file' },
  });
  expect(rotated.exitCode, rotated.stderr).toBe(0);
  const refused = await deleteAs(configDir, [old]);
  expect(refused.exitCode).toBe(2);
  expect(refused.stderr).toMatch(
    new RegExp(
      `^trident: key ${old} is named by an overlap kept until [0-9T:.-]+Z for trident keys prune \\(${join(configDir, 'overlap', old)}\\.json\\)`,
    ),
  );
  expect(refused.stderr).toContain('hint: let trident keys prune delete it when its time has come; or pass --force to delete it anyway\n');
  expect(keyExists(sandbox, old)).toBe(true);
});

it('a deleted key cannot be bound to a profile afterwards; a delete that did not happen leaves no note', async () => {
  const configDir = tempConfigDir();
  const doomed = addKey(sandbox, 'doomed');
  expect((await deleteAs(configDir, [doomed])).exitCode).toBe(0);
  const set = await runCli(['config', 'set', 'keys.keyId', doomed], { configDir });
  expect(set.exitCode).toBe(2);
  expect(set.stderr).toMatch(new RegExp(`^trident: key ${doomed} was deleted by trident keys delete at [0-9T:.-]+Z\\n`));

  const failing = addKey(sandbox, 'survives');
  sandbox.server.faults.add({
    method: 'DELETE',
    path: `/trade-api/v2/api_keys/${failing}`,
    fault: { kind: 'status', status: 400 },
    times: 1,
  });
  const failed = await deleteAs(configDir, [failing, '--retries', '0']);
  expect(failed.exitCode).not.toBe(0);
  expect(keyExists(sandbox, failing)).toBe(true);
  expect((await runCli(['config', 'set', 'keys.keyId', failing], { configDir })).exitCode).toBe(0);
});
