// The rotation state machine against an in-memory key service: a crash at every checkpoint, then another inside
// the resume or abort that follows, then a resume or abort that finishes: one working key, whichever way it went.
// 9 × 2 × 10 × 2 rotations, several seconds: here rather than in the unit tests, which a newcomer runs often.
import { afterAll, describe, it } from 'vitest';
import { crashes, expectOneWorkingKey, finishedAfterCrash } from '../helpers/rotation-checks.js';
import { continueRotation, newWorld, removeWorlds, ROTATION_POINTS, startRotation } from '../helpers/rotation-fake.js';

afterAll(removeWorlds);

// Each case has config dirs of its own and spends much of its time waiting for file-system calls (the journal,
// key files and settings are written and fsynced at every step): run concurrently, the cases wait together.
describe.concurrent('a crash at any checkpoint, then another inside the resume or abort', () => {
  for (const first of ROTATION_POINTS) {
    it(`crash after "${first}"`, async ({ expect }) => {
      for (const action of ['resume', 'abort'] as const) {
        for (const second of [...ROTATION_POINTS, 'rolling-back']) {
          for (const last of ['resume', 'abort'] as const) {
            const world = newWorld();
            await crashes(startRotation(world, {}, first));
            const result = await finishedAfterCrash(
              () => continueRotation(world, action, second),
              () => continueRotation(world, last),
            );
            const label = `${first} → ${action} (crash at ${second}) → ${last}`;
            expect(result.exitCode, label).toBe(0);
            const keyId = expectOneWorkingKey(world);
            expect(keyId === world.oldId, label).toBe(result.outcome === 'aborted');
          }
        }
      }
    });
  }
});
