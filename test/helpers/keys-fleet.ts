// A small fleet for keys audit and keys prune: one account on the keys sandbox, one config dir with two profiles
// ("a" and "b"), each using a key of its own whose private half is trident's key file, and whatever else a test
// adds (a key made on the web that nobody here holds, a key file without a profile).
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { KeysSandbox } from '../../src/sandbox/keys/server.js';
import { runCli, tempConfigDir, type CliOptions, type CliResult } from './cli.js';

export interface Fleet {
  configDir: string;
  /** Every key of this fleet has a name that starts with this. */
  name: string;
  /** Profile name → its key id. */
  keys: Record<string, string>;
}

/** A key on the sandbox with the bootstrap key's public half, its private half in `<config dir>/keys/<id>.pem`. */
export function heldKey(sandbox: KeysSandbox, configDir: string, name: string): string {
  const id = sandbox.control.addKey({ name, publicKeyPem: sandbox.bootstrap.publicKeyPem }).api_key;
  mkdirSync(join(configDir, 'keys'), { recursive: true, mode: 0o700 });
  copyFileSync(sandbox.bootstrap.privateKeyFile, join(configDir, 'keys', `${id}.pem`));
  return id;
}

export function writeProfiles(configDir: string, url: string, keys: Record<string, string>): void {
  const profiles = Object.fromEntries(
    Object.entries(keys).map(([profile, id]) => [
      profile,
      { 'keys.url': url, 'keys.keyId': id, 'keys.privateKeyFile': join(configDir, 'keys', `${id}.pem`) },
    ]),
  );
  mkdirSync(configDir, { recursive: true, mode: 0o700 });
  writeFileSync(join(configDir, 'settings.json'), JSON.stringify({ profiles }), { mode: 0o600 });
}

export function fleet(sandbox: KeysSandbox, profiles: string[] = ['a', 'b']): Fleet {
  const configDir = tempConfigDir();
  const name = `fleet-${randomBytes(4).toString('hex')}`;
  const keys = Object.fromEntries(profiles.map((profile) => [profile, heldKey(sandbox, configDir, `${name}-${profile}`)]));
  writeProfiles(configDir, sandbox.url, keys);
  return { configDir, name, keys };
}

/** `trident --profile <profile> keys ...` with nothing but the config dir to go on. */
export function keysAs(world: Fleet, profile: string, args: string[], options: CliOptions = {}): Promise<CliResult> {
  return runCli(['--profile', profile, 'keys', ...args], { ...options, configDir: world.configDir });
}

export function profileKeyId(world: Fleet, profile: string): string {
  return JSON.parse(readFileSync(join(world.configDir, 'settings.json'), 'utf8')).profiles[profile]['keys.keyId'];
}

export interface AuditedKey {
  api_key: string;
  name: string;
  age_seconds: number | null;
  age_source: string;
  in_use: boolean;
  held_by: Array<{ kind: string; where: string; profile: string | null; file: string | null }>;
  flags: string[];
  kept_until: string | null;
}

/** keys audit -o json of the fleet's keys, by id. */
export async function audit(
  world: Fleet,
  profile: string,
  args: string[] = [],
): Promise<{ result: CliResult; keys: Map<string, AuditedKey> }> {
  const result = await keysAs(world, profile, ['audit', '-o', 'json', ...args]);
  const rows = result.stdout.trim() === '' ? [] : (JSON.parse(result.stdout) as AuditedKey[]);
  return { result, keys: new Map(rows.filter((row) => row.name.startsWith(world.name)).map((row) => [row.api_key, row])) };
}

/** The overlap record of a key kept by `keys rotate --keep-old-for`. */
export const overlapRecordPath = (world: Fleet, id: string) => join(world.configDir, 'overlap', `${id}.json`);

/** Moves a record's due time `agoMs` into the past, as the clock passing it would. */
export function makeDue(world: Fleet, id: string, agoMs = 60_000): void {
  const path = overlapRecordPath(world, id);
  const record = JSON.parse(readFileSync(path, 'utf8'));
  writeFileSync(path, JSON.stringify({ ...record, kept_until: new Date(Date.now() - agoMs).toISOString() }), { mode: 0o600 });
}

/** Rotates the profile's key with --keep-old-for 1h; returns the old and the new key, and until when the old one is kept. */
export async function rotateKeeping(world: Fleet, profile: string): Promise<{ old: string; fresh: string; until: string }> {
  const old = profileKeyId(world, profile);
  const result = await keysAs(world, profile, ['rotate', '--keep-old-for', '1h', '--yes', '-o', 'json']);
  expect(result.exitCode, result.stderr).toBe(0);
  const report = JSON.parse(result.stdout);
  return { old, fresh: report.new_key.api_key, until: report.kept_until };
}
