// A rotation with --deploy/--verify killed (SIGKILL) in each application phase, at the journal checkpoint
// (TRIDENT_TEST_CRASH_AFTER) and inside the deploy hook itself, several times each: --resume must end with
// the application on the new key and the old key gone, --abort with the application on the old key again,
// byte for byte, and the new key gone.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CRASH_ENV } from '../../src/keys/rotation/deps.js';
import { running } from '../helpers/processes.js';
import { PRIVATE_KEY_MATERIAL } from '../helpers/keys-sandbox.js';
import { keyApp, type AppBehaviour, type KeyApp } from '../helpers/keys-rotate-app.js';
import {
  ROTATE_JSON,
  expectRotated,
  expectUndone,
  profileKey,
  profileWithKey,
  rotate,
  spawnRotate,
  type RotationSetup,
} from '../helpers/keys-rotation.js';
import { useKeysSandbox } from '../helpers/per-suite.js';

const sandbox = useKeysSandbox();

const RUNS = 3;
const POINTS = ['deploying', 'deployed', 'verifying-app', 'app-verified'] as const;

interface Crashed {
  setup: RotationSetup;
  app: KeyApp;
  before: { id: string; pem: string };
}

async function crash(options: { point?: string; deploy?: AppBehaviour; verify?: AppBehaviour; phase: string }): Promise<Crashed> {
  const setup = profileWithKey(sandbox);
  const app = keyApp(sandbox, setup.oldId, setup.oldFile);
  const before = app.key();
  const args = [...ROTATE_JSON, '--deploy', app.deploy(options.deploy), '--verify', app.verify(options.verify)];
  const child = await spawnRotate(setup, args, { env: options.point ? { [CRASH_ENV]: options.point } : {} });
  expect(child.signal, String(child.stderr)).toBe('SIGKILL');
  expect(JSON.parse(readFileSync(setup.journal, 'utf8')).phase).toBe(options.phase);
  return { setup, app, before };
}

async function finish(
  { setup, app, before }: Crashed,
  action: 'resume' | 'abort',
  expected = action === 'resume' ? 'rotated' : 'undone',
  exitCode = 0,
): Promise<void> {
  const result = await rotate(setup, [`--${action}`, ...ROTATE_JSON]);
  expect(result.exitCode, result.stderr).toBe(exitCode);
  expect(result.stdout + result.stderr).not.toMatch(PRIVATE_KEY_MATERIAL);
  if (expected === 'rotated') {
    const newId = await expectRotated(sandbox, setup);
    expect(app.key()).toEqual({ id: newId, pem: readFileSync(profileKey(setup).file, 'utf8') });
    expect(app.calls().at(-1)).toMatchObject({ step: 'verify', key_id: newId, status: 200 });
  } else {
    await expectUndone(sandbox, setup);
    expect(app.key()).toEqual(before);
  }
}

// A rotation with hooks runs a dozen processes: 60 s per test leaves a loaded machine twice the time seen.
describe.concurrent('a rotation with hooks killed in each application phase', { timeout: 60_000 }, () => {
  it('--dry-run of --resume and --abort after "deployed" shows the hooks still to run', async () => {
    const crashed = await crash({ point: 'deployed', phase: 'deployed' });
    const plan = async (action: string) => {
      const result = await rotate(crashed.setup, [`--${action}`, '--dry-run', '-o', 'json']);
      expect(result.exitCode, result.stderr).toBe(0);
      return JSON.parse(result.stdout).steps.map((step: { step: string }) => step.step);
    };
    expect(await plan('resume')).toEqual(['verify-app', 'delete-old', 'remove-old-file']);
    expect(await plan('abort')).toEqual(['rollback-deploy', 'restore-profile', 'delete-new', 'remove-new-files']);
    await finish(crashed, 'abort');
  });

  for (const point of POINTS) {
    for (const action of ['resume', 'abort'] as const) {
      for (let run = 1; run <= RUNS; run++) {
        it(`killed after "${point}", then --${action} (run ${run})`, async () => {
          await finish(await crash({ point, phase: point }), action);
        });
      }
    }
  }

  it("interrupted (SIGINT) while the deploy hook runs: exit 130, the hook's process group is gone, --abort undoes it", async () => {
    const setup = profileWithKey(sandbox);
    const app = keyApp(sandbox, setup.oldId, setup.oldFile);
    const before = app.key();
    const child = spawnRotate(setup, [...ROTATE_JSON, '--deploy', app.deploy({ hangOn: ['deploy'] })]);
    let hung: number | undefined;
    for (let i = 0; i < 200 && hung === undefined; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      hung = app.calls().find((call) => call.grandchild !== undefined)?.grandchild;
    }
    expect(hung).toBeDefined();
    const start = Date.now();
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode, String(result.stderr)).toBe(130);
    expect(Date.now() - start).toBeLessThan(10_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(running(hung!)).toBe(false);
    expect(JSON.parse(readFileSync(setup.journal, 'utf8')).phase).toBe('deploying');
    await finish({ setup, app, before }, 'abort');
    expect(app.calls().at(-1)).toMatchObject({ step: 'rollback', key_id: setup.oldId });
  });

  for (const action of ['resume', 'abort'] as const) {
    for (let run = 1; run <= RUNS; run++) {
      it(`killed while rolling back the application ("rolling-back-app"), then --${action} (run ${run})`, async () => {
        const crashed = await crash({ point: 'rolling-back-app', verify: { failOn: ['verify'] }, phase: 'rolling-back-app' });
        // the rollback is finished either way: the new key failed the application's check; --resume still
        // reports that failure (exit 10), --abort only that all is undone
        await finish(crashed, action, 'undone', action === 'resume' ? 10 : 0);
        expect(crashed.app.calls().map((call) => call.step)).toEqual(['deploy', 'verify', 'rollback']);
      });

      it(`killed inside the deploy hook, after the application took the new key, then --${action} (run ${run})`, async () => {
        const crashed = await crash({ deploy: { killTridentOn: ['deploy'] }, phase: 'deploying' });
        expect(crashed.app.key().id).not.toBe(crashed.setup.oldId);
        // the same command runs again on --resume (the application kills only once)
        const journal = JSON.parse(readFileSync(crashed.setup.journal, 'utf8'));
        expect(journal.hooks.deploy).toContain('--kill-trident-on deploy');
        await finish(crashed, action);
      });
    }
  }
});
