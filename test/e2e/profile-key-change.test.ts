// Changing a profile's key by hand (config set / config unset of keys.keyId or keys.privateKeyFile) while a
// rotation of that profile is in progress: refused, so that the rotation's --resume and --abort still find it by
// the profile's key. (A key being deleted by keys prune: redteam-prune.test.ts.)
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRASH_ENV } from '../../src/keys/rotation/deps.js';
import type { KeysSandbox } from '../../src/sandbox/keys/server.js';
import { runCli } from '../helpers/cli.js';
import { startSandbox } from '../helpers/keys-sandbox.js';
import { ROTATE_JSON, profileWithKey, rotate, spawnRotate } from '../helpers/keys-rotation.js';

let sandbox: KeysSandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());

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
    const resumed = await rotate(setup, ['--resume', ...ROTATE_JSON]);
    expect(resumed.exitCode, String(resumed.stderr)).toBe(0);
    const set = await runCli(['--profile', setup.profile, 'config', 'set', 'keys.keyId', other], { configDir: setup.configDir });
    expect(set.exitCode, set.stderr).toBe(0);
  });
});
