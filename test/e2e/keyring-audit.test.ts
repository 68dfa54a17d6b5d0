// keys audit, keys rotate and keys prune with private halves in a real Secret Service: an entry trident made
// counts as held even when no profile names it, and stops counting once it is cleared behind trident's back;
// a rotation that deletes the old key removes its entry, and a kept key's entry goes when prune deletes the key.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import { PRIVATE_KEY_MATERIAL, keyExists, keyFiles, runKeys } from '../helpers/keys-sandbox.js';
import { dirAccount, dirReference, KEYRING_TOOLS } from '../helpers/keyring-session.js';
import { describeWithTools } from '../helpers/system-tools.js';
import { useKeysSandbox, useKeyringSession } from '../helpers/per-suite.js';

const sandbox = useKeysSandbox();

interface AuditRow {
  api_key: string;
  held_by: Array<{ kind: string; where: string }>;
  flags: string[];
}

describeWithTools(KEYRING_TOOLS, 'keys audit, rotate and prune with keys in the keyring', () => {
  const keyring = useKeyringSession();

  const profileEnv = () => ({ ...keyring.env, TRIDENT_KEYS_URL: sandbox.url });

  async function auditRow(configDir: string, id: string): Promise<AuditRow> {
    const audited = await runCli(['keys', 'audit', '-o', 'json'], { configDir, env: profileEnv() });
    expect(audited.exitCode, audited.stderr).toBe(0);
    expect(audited.stdout).not.toMatch(PRIVATE_KEY_MATERIAL);
    return (JSON.parse(audited.stdout) as AuditRow[]).find((row) => row.api_key === id)!;
  }

  it('an entry no profile names holds its key; cleared behind trident, the key is unheld', async () => {
    const configDir = tempConfigDir();
    const user = await runKeys(sandbox, ['generate', '--name', 'auditor', '--use', '-o', 'json'], { configDir, env: keyring.env });
    expect(user.exitCode, user.stderr).toBe(0);
    const spare = await runKeys(sandbox, ['generate', '--name', 'spare', '-o', 'json'], { configDir, env: keyring.env });
    expect(spare.exitCode, spare.stderr).toBe(0);
    const spareId = JSON.parse(spare.stdout).api_key;
    expect(keyFiles(configDir)).toEqual([]);

    const held = await auditRow(configDir, spareId);
    expect(held.held_by).toEqual([
      {
        kind: 'keyring',
        where: `${dirReference(configDir, `keys/${spareId}`)}`,
        file: `${dirReference(configDir, `keys/${spareId}`)}`,
        profile: null,
      },
    ]);
    expect(held.flags).not.toContain('unheld');

    keyring.clear(dirAccount(configDir, `keys/${spareId}`));
    const gone = await auditRow(configDir, spareId);
    expect(gone.held_by).toEqual([]);
    expect(gone.flags).toContain('unheld');
  }, 60_000);

  it('rotate removes the old key entry once the old key is deleted; a kept key loses its entry when prune deletes it', async () => {
    const configDir = tempConfigDir();
    const made = await runKeys(sandbox, ['generate', '--name', 'lifecycle', '--use', '-o', 'json'], { configDir, env: keyring.env });
    expect(made.exitCode, made.stderr).toBe(0);
    const first = JSON.parse(made.stdout).api_key;

    const rotated = await runCli(['keys', 'rotate', '--yes', '-o', 'json'], { configDir, env: profileEnv() });
    expect(rotated.exitCode, rotated.stderr).toBe(0);
    const second = JSON.parse(rotated.stdout).new_key.api_key;
    expect(keyExists(sandbox, first)).toBe(false);
    expect(keyring.lookup(dirAccount(configDir, `keys/${first}`))).toBeUndefined();
    expect(keyring.lookup(dirAccount(configDir, `keys/${second}`))).toMatch(/PRIVATE KEY/);

    const kept = await runCli(['keys', 'rotate', '--yes', '--keep-old-for', '1h', '-o', 'json'], { configDir, env: profileEnv() });
    expect(kept.exitCode, kept.stderr).toBe(0);
    const third = JSON.parse(kept.stdout).new_key.api_key;
    expect(keyring.lookup(dirAccount(configDir, `keys/${second}`))).toMatch(/PRIVATE KEY/);
    expect((await auditRow(configDir, second)).flags).toEqual(['overlap']);

    // The clock passing the due time, as the record says it.
    const record = join(configDir, 'overlap', `${second}.json`);
    const due = { ...JSON.parse(readFileSync(record, 'utf8')), kept_until: new Date(Date.now() - 60_000).toISOString() };
    writeFileSync(record, JSON.stringify(due), { mode: 0o600 });
    const pruned = await runCli(['keys', 'prune', '-o', 'json'], { configDir, env: profileEnv() });
    expect(pruned.exitCode, pruned.stderr).toBe(0);
    expect(JSON.parse(pruned.stdout)).toMatchObject([{ api_key: second, result: 'deleted' }]);
    expect(keyExists(sandbox, second)).toBe(false);
    expect(keyring.lookup(dirAccount(configDir, `keys/${second}`))).toBeUndefined();
    expect(keyring.lookup(dirAccount(configDir, `keys/${third}`))).toMatch(/PRIVATE KEY/);
  }, 90_000);
});
