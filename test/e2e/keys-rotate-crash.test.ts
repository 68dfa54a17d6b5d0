// A rotation killed (SIGKILL) right after each journal write, at the file and settings steps too, through the
// test hook TRIDENT_TEST_CRASH_AFTER; then --resume or --abort must leave the invariant every time.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CRASH_ENV } from '../../src/keys/rotation/deps.js';
import { runCli, spawnCli, tempConfigDir } from '../helpers/cli.js';
import { PRIVATE_KEY_MATERIAL } from '../helpers/keys-sandbox.js';
import {
  ROTATE_JSON,
  expectRotated,
  expectUndone,
  keysOfTest,
  profileWithKey,
  rotate,
  signedRequestsFrom,
  spawnRotate,
  type RotationSetup,
} from '../helpers/keys-rotation.js';
import { useKeysSandbox } from '../helpers/per-suite.js';

const sandbox = useKeysSandbox();

const POINTS = ['minting', 'pending', 'answered', 'stored', 'switching', 'switched', 'verified', 'deleting-old', 'old-deleted'] as const;
/** From here the old key's delete may have been sent: --abort finishes the rotation instead of undoing it. */
const PAST_RETURN = new Set<string>(['deleting-old', 'old-deleted']);

async function crashAt(setup: RotationSetup, point: string, args: string[] = []): Promise<void> {
  const child = await spawnRotate(setup, [...ROTATE_JSON, ...args], { env: { [CRASH_ENV]: point } });
  expect(child.signal, String(child.stderr)).toBe('SIGKILL');
  const journal = JSON.parse(readFileSync(setup.journal, 'utf8'));
  expect(journal.phase).toBe(point === 'pending' || point === 'answered' ? 'minting' : point);
}

async function finishWith(setup: RotationSetup, action: 'resume' | 'abort', point: string): Promise<Record<string, unknown>> {
  const result = await rotate(setup, [`--${action}`, ...ROTATE_JSON]);
  expect(result.exitCode, result.stderr).toBe(0);
  expect(result.stdout + result.stderr).not.toMatch(PRIVATE_KEY_MATERIAL);
  const report = JSON.parse(result.stdout);
  if (action === 'resume' || PAST_RETURN.has(point)) {
    expect(report.outcome).toBe('rotated');
    expect(report.new_key.api_key).toBe(await expectRotated(sandbox, setup));
  } else {
    expect(report.outcome).toBe('aborted');
    await expectUndone(sandbox, setup);
  }
  return report;
}

describe.concurrent('a rotation killed after each step', () => {
  for (const point of POINTS) {
    for (const action of ['resume', 'abort'] as const) {
      it(`killed after "${point}", then --${action}`, async () => {
        const setup = profileWithKey(sandbox);
        await crashAt(setup, point);
        await finishWith(setup, action, point);
      });
    }
  }

  // --local differs only while minting: the pair is staged before the upload
  for (const action of ['resume', 'abort'] as const) {
    it(`--local, killed after "minting", then --${action}`, async () => {
      const setup = profileWithKey(sandbox);
      await crashAt(setup, 'minting', ['--local']);
      await finishWith(setup, action, 'minting');
    });
  }

  it('a generated key whose private half never reached the disk is deleted on --resume, and a new one made', async () => {
    const setup = profileWithKey(sandbox);
    await crashAt(setup, 'answered');
    const orphan = keysOfTest(sandbox, setup).find((key) => key.api_key !== setup.oldId)!;
    const report = await finishWith(setup, 'resume', 'answered');
    expect(report.warnings).toEqual([`the interrupted mint: deleted key ${orphan.api_key}, whose private key never arrived`]);
    expect((report.new_key as { api_key: string }).api_key).not.toBe(orphan.api_key);
  });

  it('a resume killed in its turn is finished by another resume', async () => {
    const setup = profileWithKey(sandbox);
    await crashAt(setup, 'answered');
    const child = await spawnRotate(setup, ['--resume', ...ROTATE_JSON], { env: { [CRASH_ENV]: 'switched' } });
    expect(child.signal).toBe('SIGKILL');
    const report = await finishWith(setup, 'resume', 'switched');
    expect((report.steps as Array<{ step: string }>).filter((step) => step.step === 'resume')).toHaveLength(2);
  });

  it('--resume with another --url is refused (the rotation finishes where it started), then works without it', async () => {
    const setup = profileWithKey(sandbox);
    await crashAt(setup, 'switched');
    const other = new URL(sandbox.url);
    other.port = String(Number(other.port) + 1);
    // Other tests of this file run meanwhile: count only requests signed by this test's keys.
    const sent = signedRequestsFrom(sandbox);
    const refused = await rotate(setup, ['--resume', ...ROTATE_JSON, '--url', other.href]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(
      /^trident: the rotation of profile "[^"]+" was started against http:\/\/127\.0\.0\.1:\d+\/trade-api\/v2, not http/,
    );
    expect(refused.stderr).toContain('hint: run --resume without --url');
    const ours = new Set([setup.oldId, ...keysOfTest(sandbox, setup).map((key) => key.api_key)]);
    expect(sent().filter((request) => ours.has(request.signer as string))).toEqual([]);
    const same = await rotate(setup, ['--resume', ...ROTATE_JSON, '--url', sandbox.url]);
    expect(same.exitCode, same.stderr).toBe(0);
    expect(JSON.parse(same.stdout).outcome).toBe('rotated');
  });

  it('an abort killed while rolling back is finished by another abort', async () => {
    const setup = profileWithKey(sandbox);
    await crashAt(setup, 'verified');
    const child = await spawnRotate(setup, ['--abort', ...ROTATE_JSON], { env: { [CRASH_ENV]: 'rolling-back' } });
    expect(child.signal).toBe('SIGKILL');
    await finishWith(setup, 'abort', 'rolling-back');
  });

  for (const action of ['resume', 'abort'] as const) {
    it(`a key from environment variables, killed after "switched", then --${action} with the same variables`, async () => {
      const setup = profileWithKey(sandbox);
      const configDir = tempConfigDir();
      const env = { TRIDENT_KEYS_URL: sandbox.url, TRIDENT_KEY_ID: setup.oldId, TRIDENT_PRIVATE_KEY_FILE: setup.oldFile };
      const child = await spawnCli(['keys', 'rotate', ...ROTATE_JSON], { configDir, env: { ...env, [CRASH_ENV]: 'switched' } });
      expect(child.signal).toBe('SIGKILL');
      expect(existsSync(`${configDir}/rotations/key-${setup.oldId}.json`)).toBe(true);
      const result = await runCli(['keys', 'rotate', `--${action}`, ...ROTATE_JSON], { configDir, env });
      expect(result.exitCode, result.stderr).toBe(0);
      const report = JSON.parse(result.stdout);
      const survivor = action === 'resume' ? report.new_key.api_key : setup.oldId;
      expect(keysOfTest(sandbox, setup).map((key) => key.api_key)).toEqual([survivor]);
      const file = action === 'resume' ? report.private_key_file : setup.oldFile;
      const list = await runCli(['keys', 'list'], { configDir, env: { ...env, TRIDENT_KEY_ID: survivor, TRIDENT_PRIVATE_KEY_FILE: file } });
      expect(list.exitCode, list.stderr).toBe(0);
      expect(existsSync(`${configDir}/rotations/key-${setup.oldId}.json`)).toBe(false);
    });
  }
});
