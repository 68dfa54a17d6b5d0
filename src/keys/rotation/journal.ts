// The journal of a key rotation: one JSON file in <config dir>/rotations/ (0600, replaced atomically with
// fsync) rewritten before and after every step, so that a process killed at any point leaves a record from
// which `keys rotate --resume` finishes the rotation and `keys rotate --abort` undoes it.
import { join } from 'node:path';
import { TridentError, ExitCode, usageError } from '../../core/errors.js';
import { assertConfigDir, listConfigDir, readConfigFile } from '../../core/files/config-files.js';
import { removeSecretFile, writeSecretFile } from '../../core/files/secret-file.js';
import type { ApiKey } from '../client.js';

/**
 * Where a rotation stands. Each step is journaled before it runs (an "-ing" phase, or the previous step's
 * end) and after it ran:
 *   minting      the new key is being made through a pending record (`pending`): it may exist on the service,
 *                and only that record's settlement says which key it is and what becomes of it
 *   stored       the new key exists (`new_key`) and its private half is in its place (`private_key_file`)
 *   switching    the profile is being pointed at the new key
 *   switched     the profile uses the new key (environment mode: nothing to switch); not verified yet
 *   verified     a request signed by the new key worked and listed it
 *   deploying    the --deploy command runs (or may have run) with the new key: the application may hold it
 *   deployed     the --deploy command succeeded
 *   verifying-app the --verify command runs
 *   app-verified the --verify command succeeded: the application works with the new key
 *   deleting-old the old key's DELETE may have been sent: from here on, even --abort goes forward
 *   old-deleted  the old key is gone; only local clean-up is left
 *   rolling-back-app the --deploy command runs again with the old key (`rollback`); both keys live until it succeeds
 *   rolling-back the new key is being undone (`rollback`)
 * The four application phases are entered only when --deploy or --verify was given.
 */
export const PHASES = [
  'minting',
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
  'rolling-back-app',
  'rolling-back',
] as const;
export type Phase = (typeof PHASES)[number];

export type StepStatus = 'done' | 'skipped' | 'failed';

/** One line of the report: what was done, how it went and how long it took. Never holds a secret. */
export interface StepRecord {
  step: string;
  status: StepStatus;
  ms: number;
  [detail: string]: unknown;
}

/** Whose key is rotated: a profile's (switched at the end), or the one given by flags or environment variables. */
export type KeyOwner = { mode: 'profile'; profile: string } | { mode: 'env'; keyId: string };

export interface OldKey extends ApiKey {
  /** null when the PEM came from TRIDENT_PRIVATE_KEY. */
  private_key_file: string | null;
  /** The file is <config dir>/keys/<api_key>.pem: trident wrote it, so it goes with the key. */
  file_created_by_trident: boolean;
}

/** The application's hooks (shell commands); they get key ids and file paths, the PEM only on stdin. */
export interface Hooks {
  deploy?: string;
  verify?: string;
  timeout_s: number;
  /** Where the rotation started: hooks run there, also when --resume runs elsewhere (cron, another job step). */
  cwd?: string;
}

export interface RunningHook {
  step: string;
  pgid: number;
  /** When the group's leader started (its start time in /proc, where there is one): a reused pid is not ours. */
  leader_start?: string;
}

export interface Journal {
  version: 2;
  /** Random; tells one rotation from another of the same key. */
  id: string;
  started_at: string;
  updated_at: string;
  phase: Phase;
  owner: KeyOwner;
  /** The profile's stored key settings before the switch, restored by a rollback. */
  profile_before?: { keyId?: string; privateKeyFile?: string };
  /** The key service's base URL: resume and abort talk to the same service. */
  url: string;
  method: 'generate' | 'local';
  keep_old: boolean;
  /** --keep-old-for: the old key is kept this long after the rotation ends, recorded for keys prune (overlap/). */
  keep_old_for_s?: number;
  hooks?: Hooks;
  old_key: OldKey;
  /** The name asked for; the service's key carries it with the mint's tag. */
  new_name: string;
  new_key?: ApiKey;
  /** The pending record of the mint under way (mint/pending.ts); it settles what the mint made. */
  pending?: string;
  /** --local: where the pair's private half waits for the key's id. */
  staging_dir: string;
  /** --out, or null for <config dir>/keys/<new api_key>.pem. */
  target_file: string | null;
  private_key_file?: string;
  old_key_deleted: boolean;
  rollback?: { from: Phase; reason: string; exit_code: number };
  /** A --deploy/--verify command started and not seen to end: its process group, ended by --resume/--abort. */
  hook?: RunningHook;
  steps: StepRecord[];
  warnings: string[];
}

export function rotationsDir(configDir: string): string {
  return join(configDir, 'rotations');
}

const safeName = (text: string) => text.replace(/[^A-Za-z0-9._-]/g, '_');

/** `rotations/key-<api_key>.json` (new rotations, one per key whoever owns it); `profile-<name>.json` is read for journals of earlier versions. */
export function journalPath(configDir: string, owner: KeyOwner): string {
  const name = owner.mode === 'profile' ? `profile-${safeName(owner.profile)}` : `key-${safeName(owner.keyId)}`;
  return join(rotationsDir(configDir), `${name}.json`);
}

export function describeOwner(owner: KeyOwner): string {
  return owner.mode === 'profile' ? `profile "${owner.profile}"` : `key ${owner.keyId} (from flags or the environment)`;
}

const ROTATIONS_DIR = 'rotations directory';

/**
 * The journal at `path` (in <config dir>/rotations), or undefined when there is none. One that someone else
 * could have planted is refused (exit 2): it names the commands a --resume runs.
 */
export function readJournal(configDir: string, path: string): Journal | undefined {
  let journal: Journal;
  try {
    const text = readConfigFile(configDir, path, 'rotation journal');
    if (text === undefined) return undefined;
    journal = JSON.parse(text) as Journal;
  } catch (error) {
    if (error instanceof TridentError) throw error;
    throw usageError(
      `cannot read the rotation journal ${path}: ${(error as Error).message}`,
      'it records a rotation in progress: repair it, or remove it once you have checked your keys with trident keys list',
    );
  }
  if (journal.version !== 2 || !PHASES.includes(journal.phase)) {
    throw usageError(
      `the rotation journal ${path} is not one this version of trident understands`,
      'finish it with the trident version that started it (keys rotate --resume or --abort)',
    );
  }
  return journal;
}

/** Before a journal is written: the rotations directory is one trident will read back (exit 2 otherwise). */
export function assertRotationsDir(configDir: string): void {
  assertConfigDir(configDir, 'rotations', ROTATIONS_DIR);
}

/** Every journal in the config dir. */
export function allJournals(configDir: string): Array<{ path: string; journal: Journal }> {
  const dir = rotationsDir(configDir);
  return listConfigDir(configDir, 'rotations', ROTATIONS_DIR)
    .filter((name) => name.endsWith('.json'))
    .map((name) => ({ path: join(dir, name), journal: readJournal(configDir, join(dir, name)) }))
    .filter((entry): entry is { path: string; journal: Journal } => entry.journal !== undefined);
}

/** Every journal in the config dir that rotates `keyId` (as its old or its new key). */
export function journalsOfKey(configDir: string, keyId: string): Array<{ path: string; journal: Journal }> {
  return allJournals(configDir).filter(({ journal }) => journal.old_key.api_key === keyId || journal.new_key?.api_key === keyId);
}

/** The journal of a rotation of `profile` in progress, if any. */
export function journalOfProfile(configDir: string, profile: string): { path: string; journal: Journal } | undefined {
  return allJournals(configDir).find(({ journal }) => journal.owner.mode === 'profile' && journal.owner.profile === profile);
}

export function inProgressError(path: string, journal: Journal): TridentError {
  return new TridentError(
    ExitCode.usage,
    `a rotation of ${describeOwner(journal.owner)} is in progress (started ${journal.started_at}, at step "${journal.phase}"; journal ${path})`,
    {
      hint: 'finish it with trident keys rotate --resume, or undo it with trident keys rotate --abort',
    },
  );
}

/** Writes the first version; fails (exit 2) if a journal is there already, even one written a moment ago by another process. */
export async function createJournal(configDir: string, path: string, journal: Journal): Promise<void> {
  try {
    await writeSecretFile(path, JSON.stringify(journal, null, 2));
  } catch (error) {
    const existing = error instanceof TridentError ? readJournal(configDir, path) : undefined;
    throw existing ? inProgressError(path, existing) : error;
  }
}

export async function saveJournal(path: string, journal: Journal): Promise<void> {
  await writeSecretFile(path, JSON.stringify(journal, null, 2), { force: true });
}

export async function removeJournal(path: string): Promise<void> {
  await removeSecretFile(path);
}
