// Pointing a profile at a key with one `config set` of its id and its private key file: the pair is checked as
// one, under the settings lock. Named while a rotation may still delete that key, the whole pair is refused and
// the profile keeps its own key and file; named once the rotation is done, both are written and the profile signs.
// Set one at a time, a refusal of the second would leave the profile with one key's id and another key's file.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { CRASH_ENV } from '../../src/keys/rotation/deps.js';
import { runCli } from '../helpers/cli.js';
import { ROTATE_JSON, profileKey, profileWithKey, rotate, spawnRotate, type RotationSetup } from '../helpers/keys-rotation.js';
import { useKeysSandbox } from '../helpers/per-suite.js';

const sandbox = useKeysSandbox();

/** A second profile, "ops", on a key and file of its own in the same config dir. */
function opsProfile(setup: RotationSetup): { keyId: string; file: string } {
  const keyId = sandbox.control.addKey({ name: `${setup.name}-ops`, publicKeyPem: sandbox.bootstrap.publicKeyPem }).api_key;
  const file = join(setup.configDir, 'keys', `${keyId}.pem`);
  copyFileSync(sandbox.bootstrap.privateKeyFile, file);
  const settingsFile = join(setup.configDir, 'settings.json');
  const settings = JSON.parse(readFileSync(settingsFile, 'utf8'));
  settings.profiles.ops = { 'keys.url': sandbox.url, 'keys.keyId': keyId, 'keys.privateKeyFile': file };
  writeFileSync(settingsFile, JSON.stringify(settings), { mode: 0o600 });
  return { keyId, file };
}

const onOps = (setup: RotationSetup, args: string[]) => runCli(['--profile', 'ops', ...args], { configDir: setup.configDir });

it('a key and its file set together: refused whole while a rotation may delete the key, written whole after', async () => {
  const setup = profileWithKey(sandbox);
  const ops = opsProfile(setup);
  const interrupted = await spawnRotate(setup, ROTATE_JSON, { env: { [CRASH_ENV]: 'switched' } });
  expect(interrupted.signal, String(interrupted.stderr)).toBe('SIGKILL');
  const newKey = profileKey(setup);
  const settingsFile = join(setup.configDir, 'settings.json');
  const before = readFileSync(settingsFile, 'utf8');

  for (const [keyId, file] of [
    [setup.oldId, setup.oldFile],
    [newKey.keyId, newKey.file],
  ]) {
    const refused = await onOps(setup, ['config', 'set', 'keys.keyId', keyId!, 'keys.privateKeyFile', file!]);
    expect(refused.exitCode, keyId).toBe(2);
    expect(refused.stderr).toContain(`trident: a rotation of profile "${setup.profile}" is in progress`);
    expect(readFileSync(settingsFile, 'utf8')).toBe(before);
  }
  // A pair that does not pair up is refused before anything is looked at.
  const odd = await onOps(setup, ['config', 'set', 'keys.keyId', newKey.keyId, 'keys.privateKeyFile']);
  expect(odd).toMatchObject({ exitCode: 2, stderr: expect.stringContaining('"keys.privateKeyFile" has no value') });
  expect(readFileSync(settingsFile, 'utf8')).toBe(before);
  // ops still signs with its own key and file.
  expect((await onOps(setup, ['keys', 'list', '-o', 'json'])).exitCode).toBe(0);
  expect(JSON.parse(readFileSync(settingsFile, 'utf8')).profiles.ops).toMatchObject({
    'keys.keyId': ops.keyId,
    'keys.privateKeyFile': ops.file,
  });

  const resumed = await rotate(setup, ['--resume', ...ROTATE_JSON]);
  expect(resumed.exitCode, String(resumed.stderr)).toBe(0);
  const set = await onOps(setup, ['config', 'set', 'keys.keyId', newKey.keyId, 'keys.privateKeyFile', newKey.file]);
  expect(set.exitCode, set.stderr).toBe(0);
  expect(JSON.parse(readFileSync(settingsFile, 'utf8')).profiles.ops).toMatchObject({
    'keys.keyId': newKey.keyId,
    'keys.privateKeyFile': newKey.file,
  });
  const list = await onOps(setup, ['keys', 'list', '-o', 'json']);
  expect(list.exitCode, list.stderr).toBe(0);
  expect(JSON.parse(list.stdout).find((key: { api_key: string }) => key.api_key === newKey.keyId)).toMatchObject({ in_use: true });
});
