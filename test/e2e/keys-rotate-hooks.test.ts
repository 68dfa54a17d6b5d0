// keys rotate --deploy/--verify against the sandbox with a real application (test/helpers/key-app.mjs) that
// keeps its key in a file and proves it works by a signed request: the old key goes only after the
// application verified with the new one, and every failure gives the application its old key back.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import { PRIVATE_KEY_MATERIAL, keyExists, startSandbox } from '../helpers/keys-sandbox.js';
import { keyApp, type KeyApp } from '../helpers/keys-rotate-app.js';
import {
  ROTATE_JSON,
  expectRotated,
  expectUndone,
  keysOfTest,
  oldKeyUndeletable,
  profileKey,
  profileWithKey,
  rotate,
  type RotationSetup,
} from '../helpers/keys-rotation.js';
import { running } from '../helpers/processes.js';
import { useKeysSandbox } from '../helpers/per-suite.js';

const sandbox = useKeysSandbox();

function appOf(setup: RotationSetup): KeyApp {
  return keyApp(sandbox, setup.oldId, setup.oldFile);
}

/** Requests signed by this test's old key from now on (other tests share the sandbox). */
function requestsOfKey(keyId: string): () => number {
  const start = sandbox.server.requests.length;
  return () => sandbox.server.requests.slice(start).filter((request) => request.headers['kalshi-access-key'] === keyId).length;
}

const stepsOf = (report: { steps: Array<{ step: string; status: string }> }) => report.steps.map((step) => `${step.step}:${step.status}`);

/** The one-line error, then its hint: the last two lines of stderr that trident wrote (hooks write before). */
const errorLine = (stderr: string) => stderr.split('\n').find((line) => line.startsWith('trident: ')) ?? '';

// A rotation with hooks runs a dozen processes: 60 s per test leaves a loaded machine twice the time seen.
describe.concurrent('keys rotate --deploy --verify', { timeout: 60_000 }, () => {
  it('deploys the new key, the application verifies with it while the old key still lives, then the old key goes', async () => {
    const setup = profileWithKey(sandbox);
    const app = appOf(setup);
    const oldPem = readFileSync(setup.oldFile, 'utf8');
    const seen = sandbox.server.requests.length;
    const result = await rotate(setup, [...ROTATE_JSON, '--deploy', app.deploy(), '--verify', app.verify()]);
    expect(result.exitCode, result.stderr).toBe(0);
    const newId = await expectRotated(sandbox, setup);
    const report = JSON.parse(result.stdout);
    expect(report.outcome).toBe('rotated');
    expect(stepsOf(report)).toEqual([
      'preflight:done',
      'mint:done',
      'store:done',
      'switch:done',
      'verify:done',
      'deploy:done',
      'verify-app:done',
      'delete-old:done',
      'remove-old-file:done',
    ]);
    for (const step of report.steps.filter((s: { step: string }) => s.step === 'deploy' || s.step === 'verify-app')) {
      expect(step).toMatchObject({ exit_code: 0, api_key: newId, ms: expect.any(Number) });
    }
    // the application holds the new key, byte for byte the file trident stored
    expect(app.key()).toEqual({ id: newId, pem: readFileSync(profileKey(setup).file, 'utf8') });
    expect(app.key().pem).not.toBe(oldPem);
    // the server's record: the application's request signed by the new key came before the old key's DELETE
    const requests = sandbox.server.requests.slice(seen);
    const appRequest = requests.findIndex((r) => r.headers['user-agent'] === 'key-app' && r.headers['kalshi-access-key'] === newId);
    const deleteOld = requests.findIndex((r) => r.method === 'DELETE' && r.path.endsWith(`/api_keys/${setup.oldId}`));
    expect(appRequest).toBeGreaterThanOrEqual(0);
    expect(deleteOld).toBeGreaterThan(appRequest);
    expect(app.calls().map((call) => [call.step, call.key_id, call.status])).toEqual([
      ['deploy', newId, undefined],
      ['verify', newId, 200],
    ]);
    expect(keyExists(sandbox, setup.oldId)).toBe(false);
    // hook output went to stderr, never to the report
    expect(result.stderr).toContain(`key-app: now using key ${newId}`);
    expect(result.stdout).not.toContain('key-app');
    expect(result.stdout + result.stderr).not.toMatch(PRIVATE_KEY_MATERIAL);
  });

  it('a failing deploy is rolled back: the application gets the old key again, the profile too, the new key is deleted', async () => {
    const setup = profileWithKey(sandbox);
    const app = appOf(setup);
    const before = app.key();
    const result = await rotate(setup, [...ROTATE_JSON, '--deploy', app.deploy({ failOn: ['deploy'] }), '--verify', app.verify()]);
    expect(result.exitCode, result.stderr).toBe(10);
    const report = JSON.parse(result.stdout);
    const newId = report.new_key.api_key;
    expect(report.outcome).toBe('rolled back');
    expect(stepsOf(report).slice(4)).toEqual([
      'verify:done',
      'deploy:failed',
      'rollback-deploy:done',
      'restore-profile:done',
      'delete-new:done',
      'remove-new-files:done',
    ]);
    expect(report.steps.find((s: { step: string }) => s.step === 'deploy').exit_code).toBe(3);
    expect(errorLine(result.stderr)).toBe(
      `trident: the --deploy command (deploy of the new key ${newId}) failed: exit 3; the rotation was rolled back: profile "ci" uses the old key ${setup.oldId} again, the application got the old key back and the new key was deleted`,
    );
    expect(app.key()).toEqual(before);
    expect(app.calls().map((call) => [call.step, call.key_id])).toEqual([
      ['deploy', newId],
      ['rollback', setup.oldId],
    ]);
    await expectUndone(sandbox, setup);
  });

  it('a failing verify is rolled back: the application gets the old key back byte for byte, the new key is deleted on the server, the profile is back', async () => {
    const setup = profileWithKey(sandbox);
    const app = appOf(setup);
    const before = app.key();
    const result = await rotate(setup, [...ROTATE_JSON, '--deploy', app.deploy(), '--verify', app.verify({ failOn: ['verify'] })]);
    expect(result.exitCode, result.stderr).toBe(10);
    const report = JSON.parse(result.stdout);
    const newId = report.new_key.api_key;
    expect(stepsOf(report).slice(5)).toEqual([
      'deploy:done',
      'verify-app:failed',
      'rollback-deploy:done',
      'restore-profile:done',
      'delete-new:done',
      'remove-new-files:done',
    ]);
    expect(errorLine(result.stderr)).toMatch(
      /^trident: the --verify command \(verify of the new key \S+\) failed: exit 3; the rotation was rolled back: .*the application got the old key back/,
    );
    expect(readFileSync(`${app.dir}/key.json`, 'utf8')).toBe(JSON.stringify(before));
    expect(app.calls().map((call) => [call.step, call.key_id])).toEqual([
      ['deploy', newId],
      ['verify', newId],
      ['rollback', setup.oldId],
    ]);
    expect(keyExists(sandbox, newId)).toBe(false);
    expect(profileKey(setup)).toEqual({ keyId: setup.oldId, file: setup.oldFile });
    await expectUndone(sandbox, setup);
  });

  it('a hook that outlives --hook-timeout is killed with its whole process group, in bounded time, and rolled back', async () => {
    const setup = profileWithKey(sandbox);
    const app = appOf(setup);
    const start = Date.now();
    const result = await rotate(setup, [
      ...ROTATE_JSON,
      '--deploy',
      app.deploy(),
      '--verify',
      app.verify({ hangOn: ['verify'] }),
      '--hook-timeout',
      '1',
    ]);
    const elapsed = Date.now() - start;
    expect(result.exitCode, result.stderr).toBe(10);
    expect(errorLine(result.stderr)).toMatch(/failed: timed out after 1 s \(its process group was killed\); the rotation was rolled back/);
    expect(result.stderr).toContain('hint: its output is above; raise --hook-timeout if it needs longer');
    expect(elapsed).toBeLessThan(20_000);
    const hung = app.calls().find((call) => call.grandchild !== undefined)!;
    expect(running(hung.grandchild!)).toBe(false);
    const report = JSON.parse(result.stdout);
    expect(report.steps.find((s: { step: string }) => s.step === 'verify-app')).toMatchObject({
      status: 'failed',
      exit_code: null,
      timed_out: true,
    });
    expect(app.key().id).toBe(setup.oldId);
    await expectUndone(sandbox, setup);
  });

  it('when the rollback deploy fails too, both keys and the journal are kept, the message says where things stand; --abort finishes once it works', async () => {
    const setup = profileWithKey(sandbox);
    const app = appOf(setup);
    writeFileSync(`${app.dir}/broken`, '');
    const result = await rotate(setup, [
      ...ROTATE_JSON,
      '--deploy',
      app.deploy({ failOn: ['rollback'], untilRepaired: true }),
      '--verify',
      app.verify({ failOn: ['verify'] }),
    ]);
    expect(result.exitCode, result.stderr).toBe(8);
    const journal = JSON.parse(readFileSync(setup.journal, 'utf8'));
    expect(journal.phase).toBe('rolling-back-app');
    const newId = journal.new_key.api_key;
    expect(
      keysOfTest(sandbox, setup)
        .map((key) => key.api_key)
        .sort(),
    ).toEqual([setup.oldId, newId].sort());
    expect(profileKey(setup).keyId).toBe(newId);
    expect(errorLine(result.stderr)).toBe(
      `trident: the --verify command (verify of the new key ${newId}) failed: exit 3; rolling back, the --deploy command, run again with the old key ${setup.oldId}, failed: exit 3`,
    );
    expect(result.stderr).toContain(
      `hint: the application may hold the new key ${newId} or the old key ${setup.oldId} (perhaps partly deployed): both keys are kept and valid, profile "ci" still uses the new key; once the deploy command works, trident keys rotate --abort (or --resume) deploys the old key again and finishes the rollback; the rotation is paused at step "rolling-back-app"`,
    );
    expect(app.key().id).toBe(newId);
    const retried = await rotate(setup, ['--resume', ...ROTATE_JSON]);
    expect(retried.exitCode).toBe(8);
    expect(JSON.parse(readFileSync(setup.journal, 'utf8')).phase).toBe('rolling-back-app');
    rmSync(`${app.dir}/broken`);
    const aborted = await rotate(setup, ['--abort', ...ROTATE_JSON]);
    expect(aborted.exitCode, aborted.stderr).toBe(0);
    expect(JSON.parse(aborted.stdout).outcome).toBe('aborted');
    expect(app.key().id).toBe(setup.oldId);
    await expectUndone(sandbox, setup);
  });

  it('with only --verify: no deploy, no rollback deploy, and the old key goes after it passed', async () => {
    const setup = profileWithKey(sandbox);
    const app = appOf(setup);
    const result = await rotate(setup, [
      ...ROTATE_JSON,
      '--verify',
      'test "$TRIDENT_DEPLOY_STEP" = verify && test -s "$TRIDENT_DEPLOY_KEY_FILE"',
    ]);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(stepsOf(JSON.parse(result.stdout))).toContain('verify-app:done');
    await expectRotated(sandbox, setup);
    expect(app.calls()).toEqual([]);
  });

  it('--dry-run shows the hooks in the plan and sends nothing', async () => {
    const setup = profileWithKey(sandbox);
    const sent = requestsOfKey(setup.oldId);
    const result = await rotate(setup, [
      '--dry-run',
      '-o',
      'json',
      '--deploy',
      'deploy-it',
      '--verify',
      'check-it',
      '--hook-timeout',
      '30',
    ]);
    expect(result.exitCode, result.stderr).toBe(0);
    const plan = JSON.parse(result.stdout);
    expect(plan.hooks).toEqual({ deploy: 'deploy-it', verify: 'check-it', timeout_s: 30, cwd: process.cwd() });
    expect(plan.steps.map((s: { step: string }) => s.step)).toEqual([
      'preflight',
      'mint',
      'store',
      'switch',
      'verify',
      'deploy',
      'verify-app',
      'on failure',
      'delete-old',
      'remove-old-file',
    ]);
    expect(plan.steps.find((s: { step: string }) => s.step === 'deploy').action).toContain('sh -c "deploy-it"');
    expect(sent()).toBe(0);
  });

  it('refuses a bad --hook-timeout, or one without a hook, before any request', async () => {
    const setup = profileWithKey(sandbox);
    const sent = requestsOfKey(setup.oldId);
    for (const [args, message] of [
      [['--deploy', 'x', '--hook-timeout', '0'], 'trident: --hook-timeout must be a positive number of seconds, not "0"'],
      [['--hook-timeout', '5'], 'trident: --hook-timeout goes with --deploy or --verify'],
      [['--if-older-than', '90x'], 'trident: --if-older-than must be a positive age such as 90d, 36h, 30m or 2w, not "90x"'],
    ] as const) {
      const result = await rotate(setup, [...ROTATE_JSON, ...args]);
      expect(result.exitCode).toBe(2);
      expect(result.stderr.split('\n')[0]).toBe(message);
    }
    expect(sent()).toBe(0);
  });

  it('--resume with nothing to resume exits 0 and says so', async () => {
    const setup = profileWithKey(sandbox);
    const result = await rotate(setup, ['--resume', ...ROTATE_JSON]);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ outcome: 'nothing to resume' });
    expect(result.stderr).toContain('rotate: no rotation is in progress: nothing to resume');
    expect(existsSync(setup.journal)).toBe(false);
  });
});

// A pipeline tells from the exit code alone whether the application refused the new key (10: rolled back, the
// old key in use, nothing lost) or the service failed (8), without reading the report.
describe.concurrent('the exit code of a rotation with hooks', { timeout: 60_000 }, () => {
  it.each([
    ['--deploy', 'deploy'],
    ['--verify', 'verify'],
  ])('a failing %s: exit 10, the old key in use on the profile and the service, the new key gone', async (flag, step) => {
    const setup = profileWithKey(sandbox);
    // fails for the new key only: a deploy command gets the old key back on rollback
    const hook = '[ "$TRIDENT_DEPLOY_STEP" = rollback ] || { echo refused >&2; exit 1; }';
    const result = await rotate(setup, ['--yes', '-q', flag, hook]);
    expect(result.exitCode, result.stderr).toBe(10);
    expect(errorLine(result.stderr)).toMatch(
      new RegExp(
        `^trident: the ${flag} command \\(${step} of the new key \\S+\\) failed: exit 1; the rotation was rolled back: profile "ci" uses the old key ${setup.oldId} again`,
      ),
    );
    expect(result.stderr).toContain('refused\n');
    await expectUndone(sandbox, setup);
  });

  it('the keys service unreachable: exit 8, no hook run, nothing changed', async () => {
    const gone = await startSandbox();
    const setup = profileWithKey(gone);
    const app = appOf(setup);
    await gone.close();
    const result = await rotate(setup, [...ROTATE_JSON, '--retries', '1', '--deploy', app.deploy(), '--verify', app.verify()]);
    expect(result.exitCode, result.stderr).toBe(8);
    expect(errorLine(result.stderr)).toMatch(/^trident: cannot connect to 127\.0\.0\.1:\d+: connection refused/);
    expect(app.calls()).toEqual([]);
    expect(profileKey(setup)).toEqual({ keyId: setup.oldId, file: setup.oldFile });
    expect(existsSync(setup.journal)).toBe(false);
  });

  it('the hooks passed and the old key cannot be deleted (503): exit 8, rotated, both keys valid', async () => {
    const setup = profileWithKey(sandbox);
    const app = appOf(setup);
    oldKeyUndeletable(sandbox, setup);
    const result = await rotate(setup, [...ROTATE_JSON, '--deploy', app.deploy(), '--verify', app.verify()]);
    expect(result.exitCode, result.stderr).toBe(8);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ outcome: 'rotated', old_key_deleted: false });
    expect(app.key().id).toBe(report.new_key.api_key);
    expect(keyExists(sandbox, setup.oldId)).toBe(true);
    expect(keyExists(sandbox, report.new_key.api_key)).toBe(true);
  });
});

// Alone, for its fault matches any key's DELETE.
describe('a failing --verify whose rollback meets a failing service', { timeout: 60_000 }, () => {
  it('exit 8 while the new key cannot be deleted, the journal kept; --resume then finishes the rollback with exit 10', async () => {
    const setup = profileWithKey(sandbox);
    const app = appOf(setup);
    sandbox.server.faults.add({ method: 'DELETE', path: /\/api_keys\//, fault: { kind: 'status', status: 503 }, times: 1 });
    const failed = await rotate(setup, [
      ...ROTATE_JSON,
      '--retries',
      '0',
      '--deploy',
      app.deploy(),
      '--verify',
      app.verify({ failOn: ['verify'] }),
    ]);
    sandbox.server.faults.clear();
    expect(failed.exitCode, failed.stderr).toBe(8);
    expect(JSON.parse(readFileSync(setup.journal, 'utf8')).phase).toBe('rolling-back');
    expect(failed.stderr).toContain('trident keys rotate --abort (or --resume) finishes rolling it back');
    expect(app.key().id).toBe(setup.oldId);
    const resumed = await rotate(setup, ['--resume', ...ROTATE_JSON]);
    expect(resumed.exitCode, resumed.stderr).toBe(10);
    expect(JSON.parse(resumed.stdout).outcome).toBe('rolled back');
    await expectUndone(sandbox, setup);
  });
});

describe.concurrent('no secret reaches a hook other than on stdin', { timeout: 60_000 }, () => {
  it('environment mode (TRIDENT_KEY_ID + TRIDENT_PRIVATE_KEY): hooks get ids and paths, the PEMs only on stdin; the rollback gets the old PEM from the environment', async () => {
    const setup = profileWithKey(sandbox);
    const oldPem = readFileSync(setup.oldFile, 'utf8');
    const app = appOf(setup);
    const configDir = tempConfigDir();
    const env = {
      TRIDENT_KEYS_URL: sandbox.url,
      TRIDENT_KEY_ID: setup.oldId,
      TRIDENT_PRIVATE_KEY: oldPem,
      TRIDENT_TIME_TOKEN: 'time-token-not-for-hooks',
    };
    // first a rotation whose verify fails (deploy, verify, rollback all run), then one that succeeds
    const failed = await runCli(
      ['keys', 'rotate', ...ROTATE_JSON, '--deploy', app.deploy(), '--verify', app.verify({ failOn: ['verify'] })],
      { configDir, env },
    );
    expect(failed.exitCode, failed.stderr).toBe(10);
    expect(app.key()).toEqual({ id: setup.oldId, pem: oldPem });
    const done = await runCli(['keys', 'rotate', ...ROTATE_JSON, '--deploy', app.deploy(), '--verify', app.verify()], { configDir, env });
    expect(done.exitCode, done.stderr).toBe(0);
    const report = JSON.parse(done.stdout);
    expect(report.profile).toBeNull();
    const newId = report.new_key.api_key;
    expect(app.key()).toEqual({ id: newId, pem: readFileSync(report.private_key_file, 'utf8') });
    expect(keysOfTest(sandbox, setup).map((key) => key.api_key)).toEqual([newId]);

    const calls = app.calls();
    expect(calls.map((call) => call.step)).toEqual(['deploy', 'verify', 'rollback', 'deploy', 'verify']);
    const rollback = calls[2]!;
    expect(rollback.env).toMatchObject({
      TRIDENT_DEPLOY_STEP: 'rollback',
      TRIDENT_DEPLOY_KEY_ID: setup.oldId,
      TRIDENT_DEPLOY_KEY_FILE: '',
      TRIDENT_OLD_KEY_ID: setup.oldId,
    });
    expect(calls[3]!.env).toMatchObject({
      TRIDENT_DEPLOY_STEP: 'deploy',
      TRIDENT_DEPLOY_KEY_ID: newId,
      TRIDENT_DEPLOY_KEY_FILE: report.private_key_file,
      TRIDENT_OLD_KEY_ID: setup.oldId,
      TRIDENT_NEW_KEY_ID: newId,
    });
    for (const call of calls) {
      expect(Object.keys(call.env)).not.toContain('TRIDENT_PRIVATE_KEY');
      expect(Object.keys(call.env)).not.toContain('TRIDENT_TIME_TOKEN');
      const exposed = JSON.stringify([call.argv, call.env, call.ps]);
      expect(exposed).not.toMatch(PRIVATE_KEY_MATERIAL);
      expect(exposed).not.toContain('time-token-not-for-hooks');
    }
    for (const output of [failed.stdout, failed.stderr, done.stdout, done.stderr]) expect(output).not.toMatch(PRIVATE_KEY_MATERIAL);
    expect(existsSync(`${configDir}/rotations/key-${setup.oldId}.json`)).toBe(false);
  });
});
