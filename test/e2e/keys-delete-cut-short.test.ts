// A `keys delete` killed before it heard the service's answer: its note says a delete was being sent by a process
// that is gone. Until the next keys command against that service has looked, no profile may be pointed at the key;
// then the note becomes a deleted key's (and trident's copy of its private half goes), or, once a late delete can no
// longer come, goes with the key still there, which a profile may use again.
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runCli, spawnCli, tempConfigDir } from '../helpers/cli.js';
import { keyExists, runKeys, sandboxEnv } from '../helpers/keys-sandbox.js';
import { useKeysSandbox } from '../helpers/per-suite.js';

const sandbox = useKeysSandbox();

async function spareKey(configDir: string): Promise<{ id: string; file: string }> {
  const made = await runKeys(sandbox, ['generate', '--name', 'spare', '-o', 'json'], {
    configDir,
    env: { TRIDENT_CREDENTIAL_STORE: 'file' },
  });
  expect(made.exitCode, made.stderr).toBe(0);
  const { api_key: id, private_key_file: file } = JSON.parse(made.stdout);
  return { id, file };
}

/** `keys delete <id>` killed (SIGKILL) once the service holds its DELETE, as `fault` lets it. */
async function killedDelete(
  configDir: string,
  id: string,
  fault: { kind: 'hang' } | { kind: 'delay'; ms: number; afterProcessing: true },
  flags: string[] = [],
) {
  sandbox.server.faults.add({ method: 'DELETE', path: new RegExp(`${id}$`), fault });
  const child = spawnCli(['keys', 'delete', id, '--yes', ...flags], { configDir, env: sandboxEnv(sandbox) });
  await sandbox.server.faults.next();
  child.kill('SIGKILL');
  expect((await child).signal).toBe('SIGKILL');
}

const note = (configDir: string, id: string) => join(configDir, 'overlap', `${id}.pruned`);
const pointAt = (configDir: string, key: { id: string; file: string }) =>
  runCli(['config', 'set', 'keys.keyId', key.id, 'keys.privateKeyFile', key.file], { configDir });

it('killed after the service deleted the key: refused to profiles meanwhile; the next keys command settles it as deleted', async () => {
  const configDir = tempConfigDir();
  const key = await spareKey(configDir);
  await killedDelete(configDir, key.id, { kind: 'delay', ms: 3000, afterProcessing: true });
  expect(keyExists(sandbox, key.id)).toBe(false);

  const refused = await pointAt(configDir, key);
  expect(refused.exitCode).toBe(2);
  expect(refused.stderr).toMatch(
    new RegExp(
      `^trident: key ${key.id} was being deleted by a trident keys delete cut short at [0-9T:.-]+Z: the next keys command against ${sandbox.url.replace(/[.]/g, '\\.')}/? finds out whether the service deleted it\\n`,
    ),
  );

  const list = await runKeys(sandbox, ['list'], { configDir });
  expect(list.exitCode, list.stderr).toBe(0);
  expect(list.stderr).toContain(`settled 1 interrupted key delete of an earlier run: key ${key.id} was deleted\n`);
  expect(list.stderr).toContain(`removed ${key.file}, the private key of the deleted key ${key.id}\n`);
  expect(existsSync(key.file)).toBe(false);
  expect(readFileSync(note(configDir, key.id), 'utf8')).toMatch(/^[0-9T:.-]+Z keys delete\n$/);
  expect((await pointAt(configDir, key)).stderr).toMatch(new RegExp(`^trident: key ${key.id} was deleted by trident keys delete at `));

  // Settled once: the next command says nothing of it.
  const again = await runKeys(sandbox, ['list'], { configDir });
  expect(again.stderr).not.toContain('interrupted key delete');
});

it('killed before the service deleted it: the note stays while a late delete could come, then goes and the key is usable', async () => {
  const configDir = tempConfigDir();
  const key = await spareKey(configDir);
  await killedDelete(configDir, key.id, { kind: 'hang' });
  expect(keyExists(sandbox, key.id)).toBe(true);

  const soon = await runKeys(sandbox, ['list'], { configDir });
  expect(soon.exitCode, soon.stderr).toBe(0);
  expect(soon.stderr).not.toContain('interrupted key delete');
  expect((await pointAt(configDir, key)).exitCode).toBe(2);

  // The same note, written three minutes earlier: a late delete can no longer come.
  const text = readFileSync(note(configDir, key.id), 'utf8');
  const [at] = text.split(' ');
  writeFileSync(note(configDir, key.id), text.replace(at!, new Date(Date.parse(at!) - 180_000).toISOString()), { mode: 0o600 });
  const later = await runKeys(sandbox, ['list'], { configDir });
  expect(later.exitCode, later.stderr).toBe(0);
  expect(later.stderr).toContain(
    `settled 1 interrupted key delete of an earlier run: key ${key.id} was not deleted: it is still on the service\n`,
  );
  expect(existsSync(note(configDir, key.id))).toBe(false);
  expect(existsSync(key.file)).toBe(true);
  const pointed = await pointAt(configDir, key);
  expect(pointed.exitCode, pointed.stderr).toBe(0);
  expect((await runCli(['keys', 'list'], { configDir, env: { TRIDENT_KEYS_URL: sandbox.url } })).exitCode).toBe(0);
});

it('a note naming a live process is a delete under way: it is not settled', async () => {
  const configDir = tempConfigDir();
  const key = await spareKey(configDir);
  await killedDelete(configDir, key.id, { kind: 'hang' });
  // The same note, now naming this (live) test process: a delete still waiting for its answer.
  const text = readFileSync(note(configDir, key.id), 'utf8').replace(/^sending \d+ \S+/m, `sending ${process.pid} -`);
  writeFileSync(note(configDir, key.id), text.replace(/^\S+/, new Date(Date.now() - 180_000).toISOString()), { mode: 0o600 });
  const list = await runKeys(sandbox, ['list'], { configDir });
  expect(list.stderr).not.toContain('interrupted key delete');
  const refused = await pointAt(configDir, key);
  expect(refused.stderr).toMatch(new RegExp(`^trident: key ${key.id} is being deleted by trident keys delete \\(since `));
  expect(readdirSync(join(configDir, 'overlap'))).toEqual([`${key.id}.pruned`]);
});

it('a --force delete cut short: the settle names the profile left with the deleted key, which the killed run may not have', async () => {
  const configDir = tempConfigDir();
  const made = await runKeys(sandbox, ['--profile', 'ci', 'generate', '--name', 'ci', '--use', '-o', 'json'], {
    configDir,
    env: { TRIDENT_CREDENTIAL_STORE: 'file' },
  });
  expect(made.exitCode, made.stderr).toBe(0);
  const id = JSON.parse(made.stdout).api_key as string;
  await killedDelete(configDir, id, { kind: 'delay', ms: 3000, afterProcessing: true }, ['--force']);
  const list = await runKeys(sandbox, ['list'], { configDir });
  expect(list.exitCode, list.stderr).toBe(0);
  expect(list.stderr).toContain(
    `settled 1 interrupted key delete of an earlier run: key ${id} was deleted, although profile "ci" still names it\n`,
  );
});
