// Changing a profile's key by hand (config set / config unset of keys.keyId or keys.privateKeyFile) while a
// rotation of that profile is in progress: refused, so that the rotation's --resume and --abort still find it by
// the profile's key; and another profile is not pointed at a key the rotation may delete. A rotation of a key
// that another profile uses too is refused before it starts. (A key being deleted by keys prune:
// redteam-prune.test.ts.)
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CRASH_ENV } from '../../src/keys/rotation/deps.js';
import { runCli } from '../helpers/cli.js';
import { ROTATE_JSON, profileWithKey, rotate, spawnRotate } from '../helpers/keys-rotation.js';
import { useKeysSandbox } from '../helpers/per-suite.js';

const sandbox = useKeysSandbox();

describe('a rotation of a key two profiles use', () => {
  it('is refused before anything is sent (exit 2); with --keep-old it runs and the other profile keeps working', async () => {
    const setup = profileWithKey(sandbox);
    const settingsFile = join(setup.configDir, 'settings.json');
    const settings = JSON.parse(readFileSync(settingsFile, 'utf8'));
    settings.profiles.ops = { ...settings.profiles[setup.profile] };
    writeFileSync(settingsFile, JSON.stringify(settings), { mode: 0o600 });
    const keysBefore = sandbox.control.listKeys().length;
    const refused = await rotate(setup, ROTATE_JSON);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toBe(
      `trident: key ${setup.oldId} is also used by profile "ops": a rotation deletes the old key, which would leave it with a deleted key\n` +
        'hint: rotate with --keep-old (or --keep-old-for <age>) and point profile "ops" at the new key afterwards, or point profile "ops" at another key first\n',
    );
    expect(sandbox.control.listKeys().length).toBe(keysBefore);
    const kept = await rotate(setup, ['--keep-old', ...ROTATE_JSON]);
    expect(kept.exitCode, String(kept.stderr)).toBe(0);
    const list = await runCli(['--profile', 'ops', 'keys', 'list', '-o', 'json'], { configDir: setup.configDir });
    expect(list.exitCode, list.stderr).toBe(0);
  });
});

describe("a profile's key changed by hand during its rotation", () => {
  it('is refused (exit 2, the settings unchanged) until the rotation is finished; then it is taken', async () => {
    const setup = profileWithKey(sandbox);
    const child = await spawnRotate(setup, ROTATE_JSON, { env: { [CRASH_ENV]: 'switched' } });
    expect(child.signal, String(child.stderr)).toBe('SIGKILL');
    const settingsFile = join(setup.configDir, 'settings.json');
    const before = readFileSync(settingsFile, 'utf8');
    const other = sandbox.bootstrap.keyId;
    for (const args of [
      ['config', 'set', 'keys.keyId', other],
      ['config', 'set', 'keys.privateKeyFile', join(setup.configDir, 'other.pem')],
      ['config', 'unset', 'keys.keyId'],
    ]) {
      const result = await runCli(['--profile', setup.profile, ...args], { configDir: setup.configDir });
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(result.stderr).toBe(
        `trident: a rotation of profile "${setup.profile}" is in progress (started ${JSON.parse(readFileSync(setup.journal, 'utf8')).started_at}, at step "switched"; journal ${setup.journal})\n` +
          'hint: finish it with trident keys rotate --resume, or undo it with trident keys rotate --abort\n',
      );
      expect(readFileSync(settingsFile, 'utf8')).toBe(before);
    }
    // Another setting of the profile, and the same setting of another profile, are not held up.
    expect((await runCli(['--profile', setup.profile, 'config', 'set', 'output', 'json'], { configDir: setup.configDir })).exitCode).toBe(
      0,
    );
    expect((await runCli(['--profile', 'other', 'config', 'set', 'keys.keyId', other], { configDir: setup.configDir })).exitCode).toBe(0);
    // Nor may another profile be pointed at a key the rotation may still delete: its old key, or its new one if undone.
    const newId = JSON.parse(readFileSync(setup.journal, 'utf8')).new_key.api_key;
    for (const keyId of [setup.oldId, newId]) {
      const other = await runCli(['--profile', 'ops', 'config', 'set', 'keys.keyId', keyId], { configDir: setup.configDir });
      expect(other.exitCode, keyId).toBe(2);
      expect(other.stderr).toContain(`trident: a rotation of profile "${setup.profile}" is in progress`);
    }
    const resumed = await rotate(setup, ['--resume', ...ROTATE_JSON]);
    expect(resumed.exitCode, String(resumed.stderr)).toBe(0);
    const set = await runCli(['--profile', setup.profile, 'config', 'set', 'keys.keyId', other], { configDir: setup.configDir });
    expect(set.exitCode, set.stderr).toBe(0);
  });
});

describe('a key a rotation deleted', () => {
  it('cannot be bound to a profile afterwards: the rotation leaves a note of the delete, as keys delete does', async () => {
    const setup = profileWithKey(sandbox);
    const { oldId } = setup;
    const rotated = await rotate(setup, ROTATE_JSON);
    expect(rotated.exitCode, String(rotated.stderr)).toBe(0);
    const settingsFile = join(setup.configDir, 'settings.json');
    const before = readFileSync(settingsFile, 'utf8');
    const bind = await runCli(
      ['--profile', 'ops', 'config', 'set', 'keys.keyId', oldId, 'keys.privateKeyFile', join(setup.configDir, 'old.pem')],
      {
        configDir: setup.configDir,
      },
    );
    expect(bind.exitCode).toBe(2);
    expect(bind.stderr).toMatch(new RegExp(`^trident: key ${oldId} was deleted by trident keys rotate at [0-9T:.-]+Z\\n`));
    expect(readFileSync(settingsFile, 'utf8')).toBe(before);
    expect(readFileSync(join(setup.configDir, 'overlap', `${oldId}.pruned`), 'utf8')).toMatch(/^[0-9T:.-]+Z keys rotate\n$/);
  });
});
