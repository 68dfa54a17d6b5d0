// What the rotation e2e files share: a profile with a key of its own (so that tests sharing a sandbox never
// delete each other's keys), running `keys rotate` for it, and the invariant every rotation must leave
// behind, finished, resumed or aborted: the profile holds one working key whose private half is on disk,
// and no other key of the test is left on the service.
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import type { KeysSandbox } from '../../src/sandbox/keys/server.js';
import { runCli, spawnCli, tempConfigDir, type CliOptions, type CliResult } from '../helpers/cli.js';
import { fileMode } from './keys-sandbox.js';
import { writeSettings } from './settings-file.js';

export interface RotationSetup {
  configDir: string;
  profile: string;
  /** Every key of this test has a name that starts with this. */
  name: string;
  oldId: string;
  oldFile: string;
  journal: string;
}

/**
 * A key added on the service for this test only (with the bootstrap key's public half), its private half at
 * `<config dir>/keys/<id>.pem` as if trident had written it (or elsewhere with `ownFile`), and a profile using it.
 */
export function profileWithKey(sandbox: KeysSandbox, options: { ownFile?: boolean } = {}): RotationSetup {
  const configDir = tempConfigDir();
  const profile = 'ci';
  const name = `rot-${randomBytes(4).toString('hex')}`;
  const oldId = sandbox.control.addKey({ name, publicKeyPem: sandbox.bootstrap.publicKeyPem }).api_key;
  const oldFile = options.ownFile ? join(dirname(configDir), 'my-key.pem') : join(configDir, 'keys', `${oldId}.pem`);
  mkdirSync(dirname(oldFile), { recursive: true, mode: 0o700 });
  copyFileSync(sandbox.bootstrap.privateKeyFile, oldFile);
  writeSettings(configDir, profile, { 'keys.url': sandbox.url, 'keys.keyId': oldId, 'keys.privateKeyFile': oldFile });
  return { configDir, profile, name, oldId, oldFile, journal: join(configDir, 'rotations', `key-${oldId}.json`) };
}

/** `trident --profile ci keys rotate ...` with nothing but the profile to go on (no key in the environment). */
export function rotate(setup: RotationSetup, args: string[], options: CliOptions = {}): Promise<CliResult> {
  return runCli(['--profile', setup.profile, 'keys', 'rotate', ...args], { ...options, configDir: setup.configDir });
}

export function spawnRotate(setup: RotationSetup, args: string[], options: CliOptions = {}) {
  return spawnCli(['--profile', setup.profile, 'keys', 'rotate', ...args], { ...options, configDir: setup.configDir });
}

export function profileKey(setup: RotationSetup): { keyId: string; file: string } {
  const settings = JSON.parse(readFileSync(join(setup.configDir, 'settings.json'), 'utf8'));
  const values = settings.profiles[setup.profile];
  return { keyId: values['keys.keyId'], file: values['keys.privateKeyFile'] };
}

/** The keys on the service that belong to this test. */
export const keysOfTest = (sandbox: KeysSandbox, setup: RotationSetup) =>
  sandbox.control.listKeys().filter((key) => key.name.startsWith(setup.name));

/**
 * The invariant: the profile's key is on the service, its file (0600) signs a request that works, it is the
 * only key of the test left, no journal and no staged private key remain. Returns the profile's key.
 */
export async function expectOneWorkingKey(sandbox: KeysSandbox, setup: RotationSetup): Promise<{ keyId: string; file: string }> {
  const key = profileKey(setup);
  expect(keysOfTest(sandbox, setup).map((k) => k.api_key)).toEqual([key.keyId]);
  expect(fileMode(key.file)).toBe(0o600);
  const list = await runCli(['--profile', setup.profile, 'keys', 'list', '-o', 'json'], { configDir: setup.configDir });
  expect(list.exitCode, list.stderr).toBe(0);
  expect(JSON.parse(list.stdout).map((k: { api_key: string }) => k.api_key)).toContain(key.keyId);
  expect(existsSync(setup.journal)).toBe(false);
  const keysDir = join(setup.configDir, 'keys');
  expect(existsSync(keysDir) ? readdirSync(keysDir).filter((file) => file.startsWith('pending-')) : []).toEqual([]);
  return key;
}

/** After a finished rotation: the profile uses a new key and the old one is gone, with its file if trident made it. */
export async function expectRotated(sandbox: KeysSandbox, setup: RotationSetup): Promise<string> {
  const { keyId, file } = await expectOneWorkingKey(sandbox, setup);
  expect(keyId).not.toBe(setup.oldId);
  expect(file).toBe(join(setup.configDir, 'keys', `${keyId}.pem`));
  expect(existsSync(setup.oldFile)).toBe(false);
  return keyId;
}

/** After an undone rotation: the profile uses the old key and its file, as before. */
export async function expectUndone(sandbox: KeysSandbox, setup: RotationSetup): Promise<void> {
  const { keyId, file } = await expectOneWorkingKey(sandbox, setup);
  expect(keyId).toBe(setup.oldId);
  expect(file).toBe(setup.oldFile);
  expect(existsSync(setup.oldFile)).toBe(true);
}

/** Requests received from now on, with the key that signed each. */
export function signedRequestsFrom(sandbox: KeysSandbox): () => Array<{ method: string; path: string; signer: unknown }> {
  const start = sandbox.server.requests.length;
  return () =>
    sandbox.server.requests.slice(start).map(({ method, path, headers }) => ({ method, path, signer: headers['kalshi-access-key'] }));
}

export const ROTATE_JSON = ['--yes', '-o', 'json'];

/** The service answers 503 to every attempt at deleting the rotation's old key. */
export function oldKeyUndeletable(sandbox: KeysSandbox, setup: RotationSetup): void {
  sandbox.server.faults.add({
    method: 'DELETE',
    path: `/trade-api/v2/api_keys/${setup.oldId}`,
    fault: { kind: 'status', status: 503 },
    times: 4,
  });
}
