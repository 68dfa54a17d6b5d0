// What the rotation's in-process tests check after a rotation ended, however it ended.
import { createPublicKey } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { RotationResult } from '../../src/keys/rotation/machine.js';
import { journalPath } from '../../src/keys/rotation/journal.js';
import { Crash, type World } from './rotation-fake.js';

export const JOURNAL = (world: World) => journalPath(world.configDir, { mode: 'env', keyId: world.oldId });
export const profileKey = (world: World) =>
  JSON.parse(readFileSync(join(world.configDir, 'settings.json'), 'utf8')).profiles.ci as Record<string, string>;
export const spki = (pem: string) => createPublicKey(pem).export({ type: 'spki', format: 'pem' }).toString();

/** One key on the service, the profile's; its file holds its private half; no journal, no staged key. */
export function expectOneWorkingKey(world: World): string {
  const { 'keys.keyId': keyId, 'keys.privateKeyFile': file } = profileKey(world);
  expect([...world.service.keys.keys()]).toEqual([keyId]);
  expect(world.service.keys.get(keyId!)!.publicKeyPem).toBe(spki(readFileSync(file!, 'utf8')));
  expect(statSync(file!).mode & 0o777).toBe(0o600);
  expect(existsSync(JOURNAL(world))).toBe(false);
  expect(readdirSync(join(world.configDir, 'keys')).filter((name) => name.startsWith('pending-'))).toEqual([]);
  expect(existsSync(world.oldFile)).toBe(keyId === world.oldId);
  return keyId!;
}

export async function crashes(promise: Promise<unknown>): Promise<void> {
  await expect(promise).rejects.toBeInstanceOf(Crash);
}

/** `first` may be killed at a checkpoint (a Crash); then `then` finishes the rotation. */
export async function finishedAfterCrash(
  first: () => Promise<RotationResult>,
  then: () => Promise<RotationResult>,
): Promise<RotationResult> {
  try {
    return await first();
  } catch (error) {
    if (!(error instanceof Crash)) throw error;
    return then();
  }
}
