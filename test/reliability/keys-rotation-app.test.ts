// The application phases of the rotation state machine against the in-memory key service, with real shell
// hooks that keep the "application's" key in a file: a crash at every checkpoint from "deploying" on, then
// another inside the resume or abort that follows; the application must end on the profile's key. The hooks
// are processes (hundreds of them), which is why this runs with the binary tests rather than the unit lane.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Rotation, type RotationResult } from '../../src/keys/rotation/machine.js';
import type { Hooks } from '../../src/keys/rotation/journal.js';
import { beginRotation, findRotation, planRotation } from '../../src/keys/rotation/start.js';
import { crashes, expectOneWorkingKey, finishedAfterCrash, profileKey } from '../helpers/rotation-checks.js';
import { contextFor, fakeDeps, newWorld, removeWorlds, type World } from '../helpers/rotation-fake.js';

const APP_POINTS = ['deploying', 'deployed', 'verifying-app', 'app-verified'];
const LATER = [...APP_POINTS, 'deleting-old', 'old-deleted', 'rolling-back-app', 'rolling-back'];
afterAll(removeWorlds);

interface App {
  world: World;
  env: NodeJS.ProcessEnv;
  hooks: Hooks;
  /** The PEM the application holds. */
  key(): string;
}

/** A world whose application holds the old key; verify fails while <app>/broken exists. */
function appWorld(): App {
  const world = newWorld();
  const dir = mkdtempSync(join(tmpdir(), 'trident-app-'));
  writeFileSync(join(dir, 'key.pem'), readFileSync(world.oldFile));
  return {
    world,
    env: { PATH: process.env.PATH, APP: dir },
    hooks: {
      deploy: 'cat > "$APP/key.pem.new" && mv "$APP/key.pem.new" "$APP/key.pem"',
      verify: 'test ! -e "$APP/broken" && test -s "$APP/key.pem"',
      timeout_s: 10,
    },
    key: () => readFileSync(join(dir, 'key.pem'), 'utf8'),
  };
}

async function start(app: App, crashAt?: string): Promise<RotationResult> {
  const ctx = contextFor(app.world, app.env);
  const rotation = await beginRotation(ctx, { ...(await planRotation(ctx, {})), hooks: app.hooks }, fakeDeps(app.world, crashAt));
  return rotation.run();
}

function go(app: App, action: 'resume' | 'abort', crashAt?: string): Promise<RotationResult> {
  const ctx = contextFor(app.world, app.env);
  const { path, journal } = findRotation(ctx, {}, action);
  return new Rotation(ctx, path, journal, fakeDeps(app.world, crashAt), { resumed: true })[action]();
}

/** The profile's key works, and the application holds exactly it. */
function expectAppOnProfileKey(app: App, label: string): string {
  const keyId = expectOneWorkingKey(app.world);
  expect(app.key(), label).toBe(readFileSync(profileKey(app.world)['keys.privateKeyFile']!, 'utf8'));
  return keyId;
}

describe('the application phases', () => {
  it('are journaled in order, and the old key goes only after the application verified', async () => {
    const app = appWorld();
    const checkpoints: string[] = [];
    const ctx = contextFor(app.world, app.env);
    const rotation = await beginRotation(
      ctx,
      { ...(await planRotation(ctx, {})), hooks: app.hooks },
      fakeDeps(app.world, undefined, checkpoints),
    );
    const result = await rotation.run();
    expect(result.outcome).toBe('rotated');
    expect(checkpoints).toEqual([
      'minting',
      'pending',
      'answered',
      'stored',
      'switching',
      'switched',
      'verified',
      'deploying',
      'deployed',
      'verifying-app',
      'app-verified',
      'deleting-old',
      'old-deleted',
    ]);
    expect(expectAppOnProfileKey(app, 'rotated')).not.toBe(app.world.oldId);
  });

  it('a failing verify rolls back through "rolling-back-app": the application gets the old key back', async () => {
    const app = appWorld();
    writeFileSync(join(app.env.APP!, 'broken'), '');
    const result = await start(app);
    expect(result).toMatchObject({ outcome: 'rolled back', exitCode: 10 });
    expect(result.journal.steps.map((step) => step.step).slice(-5)).toEqual([
      'verify-app',
      'rollback-deploy',
      'restore-profile',
      'delete-new',
      'remove-new-files',
    ]);
    expect(expectAppOnProfileKey(app, 'rolled back')).toBe(app.world.oldId);
  });
});

describe('a crash in an application phase, then another inside the resume or abort', () => {
  // Each case runs up to 32 rotations with shell hooks: a generous limit for a loaded machine.
  for (const first of APP_POINTS) {
    for (const action of ['resume', 'abort'] as const) {
      it(`crash after "${first}", then --${action}`, { timeout: 120_000 }, async () => {
        for (const second of LATER) {
          for (const last of ['resume', 'abort'] as const) {
            const app = appWorld();
            await crashes(start(app, first));
            const result = await finishedAfterCrash(
              () => go(app, action, second),
              () => go(app, last),
            );
            const label = `${first} → ${action} (crash at ${second}) → ${last}`;
            expect(result.exitCode, label).toBe(0);
            const keyId = expectAppOnProfileKey(app, label);
            expect(keyId === app.world.oldId, label).toBe(result.outcome === 'aborted');
          }
        }
      });
    }
  }

  it('crash after "rolling-back-app", then another inside the resume or abort: rolled back either way', async () => {
    for (const action of ['resume', 'abort'] as const) {
      for (const second of ['rolling-back-app', 'rolling-back']) {
        const app = appWorld();
        writeFileSync(join(app.env.APP!, 'broken'), '');
        await crashes(start(app, 'rolling-back-app'));
        const result = await finishedAfterCrash(
          () => go(app, action, second),
          () => go(app, action),
        );
        expect(result.exitCode).toBe(action === 'resume' ? 10 : 0);
        expect(expectAppOnProfileKey(app, `${action} ${second}`)).toBe(app.world.oldId);
      }
    }
  });
});
