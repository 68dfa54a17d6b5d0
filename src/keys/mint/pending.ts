// Pending records: before trident asks the service for a key (create, generate, or a rotation's mint), what it
// asks for is written to <config dir>/pending/<id>.json (0600 in a 0700 directory, fsynced), and removed once
// the private half is in its place or the outcome is otherwise settled. A process killed in between leaves
// the record for the next keys command against that service (or, for a rotation, its --resume / --abort).
import { randomBytes } from 'node:crypto';
import { existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { TridentError } from '../../core/errors.js';
import { processAlive } from '../../core/process-identity.js';
import { assertConfigDir, listConfigDir, readConfigFile } from '../../core/files/config-files.js';
import { preflightSecretDir, removeSecretFile, writeSecretFile } from '../../core/files/secret-file.js';

export interface PendingRecord {
  /** 2: the key's name carries a tag of this request (tag.ts). 1: an earlier trident's, by name only. */
  version: 1 | 2;
  verb: 'generate' | 'create';
  /** The name the user asked for. */
  name: string;
  /** The name sent to the service, tag included: the key this request made is the one with this name. */
  sent_name: string;
  /** The key service's base URL: only a command against that service settles the record. */
  url: string;
  written_at: string;
  /** The process that sent the request: while it lives, nobody else settles its record. */
  pid: number;
  /** Version 1 only: ids of the keys of that name before the request. */
  before?: string[] | null;
  scopes: string[];
  /** A pair made here: where its private half waits for the key's id. */
  staged_file?: string;
  /** --out as an absolute path, "-" for stdout, null for <config dir>/keys/<api_key>.pem. */
  target_file: string | null;
  /**
   * The key's default place was its keyring entry: a settlement that cannot ask the keyring cannot tell whether
   * the key is held, so it waits for one that answers rather than deleting a key whose private half is there.
   */
  keyring?: boolean;
  force?: boolean;
  /** create --public-key: the private half is the user's own, wherever they keep it. */
  uploaded?: boolean;
  /** The journal of the rotation this mint belongs to: settled by that rotation's --resume / --abort only. */
  rotation?: string;
  /** Nobody wants the key any more (a rotation gave it up): once proven ours it is deleted, even if held. */
  unwanted?: boolean;
}

export interface PendingEntry {
  path: string;
  record: PendingRecord;
}

export type NewRecord = Omit<PendingRecord, 'version' | 'pid' | 'written_at'>;

export const pendingDir = (configDir: string): string => join(configDir, 'pending');
const PENDING_DIR = 'pending records directory';

/**
 * How long after its request a key may still appear: a slow service, or a gateway that answered 502/504 (or a
 * timeout that gave up) while the service went on making the key. Until then, a record whose key is not listed
 * stays, so that a key made late is still found and settled.
 */
export const LATE_KEY_WINDOW_MS = 2 * 60_000;

export function mayStillAppear(record: PendingRecord, now: Date): boolean {
  return now.getTime() - Date.parse(record.written_at) < LATE_KEY_WINDOW_MS;
}

/** "until 17:42:10 UTC": when a record whose key is not listed stops being checked. */
export function checkedUntil(record: PendingRecord): string {
  return `until ${new Date(Date.parse(record.written_at) + LATE_KEY_WINDOW_MS).toISOString().slice(11, 19)} UTC`;
}

/** Before anything is sent: the record can be written (exit 2 otherwise). */
export function preflightPending(configDir: string): void {
  assertConfigDir(configDir, 'pending', PENDING_DIR);
  preflightSecretDir(pendingDir(configDir));
}

/** Written and fsynced before the request is sent. */
export async function writePending(configDir: string, record: NewRecord, now: Date): Promise<PendingEntry> {
  const full: PendingRecord = { version: 2, ...record, written_at: now.toISOString(), pid: process.pid };
  const path = join(pendingDir(configDir), `${randomBytes(8).toString('hex')}.json`);
  await writeSecretFile(path, JSON.stringify(full, null, 2));
  return { path, record: full };
}

/** Rewrites a record in place (a rotation handing its record over to later keys commands). */
export async function rewritePending(entry: PendingEntry, record: PendingRecord): Promise<PendingEntry> {
  await writeSecretFile(entry.path, JSON.stringify(record, null, 2), { force: true });
  return { path: entry.path, record };
}

export async function removePending(entry: PendingEntry): Promise<void> {
  await removeSecretFile(entry.path);
}

/** Another process, alive: this one's pid on a record means an earlier process that had it. */
const anotherAlive = (pid: number) => pid !== process.pid && processAlive(pid);

const CLAIMED = /^([0-9a-f]+)\.json\.claimed-(\d+)$/;

function parseRecord(text: string): PendingRecord | undefined {
  try {
    const record = JSON.parse(text) as PendingRecord;
    if ((record.version !== 1 && record.version !== 2) || typeof record.name !== 'string' || typeof record.url !== 'string')
      return undefined;
    if (record.version === 1) record.sent_name = record.name;
    return typeof record.sent_name === 'string' ? record : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The record at `path` (in <config dir>/pending), or undefined if it is gone or not a record. One that someone
 * else could have planted is refused (exit 2): its contents decide which key is deleted.
 */
export function readPending(configDir: string, path: string): PendingEntry | undefined {
  let text: string | undefined;
  try {
    text = readConfigFile(configDir, path, 'pending record');
  } catch (error) {
    if (error instanceof TridentError) throw error;
    return undefined;
  }
  const record = text === undefined ? undefined : parseRecord(text);
  return record && { path, record };
}

/** Renames the record to a name of this process's own, so that two commands never settle the same record. */
function claim(dir: string, name: string, id: string): string | undefined {
  const path = join(dir, `${id}.json.claimed-${process.pid}`);
  try {
    renameSync(join(dir, name), path);
    return path;
  } catch {
    return undefined;
  }
}

/** A rotation's record is its own while the rotation's journal exists. */
const ownedByRotation = (record: PendingRecord) => record.rotation !== undefined && existsSync(record.rotation);

/**
 * The records for `url` that no live process is working on, each claimed by this process. A claim left by a
 * dead process is taken over.
 */
export function claimPending(configDir: string, url: string): PendingEntry[] {
  const dir = pendingDir(configDir);
  const claimed: PendingEntry[] = [];
  for (const name of listConfigDir(configDir, 'pending', PENDING_DIR)) {
    const stale = CLAIMED.exec(name);
    const id = stale ? stale[1]! : /^([0-9a-f]+)\.json$/.exec(name)?.[1];
    if (id === undefined) continue;
    const entry = readPending(configDir, join(dir, name));
    if (entry === undefined || entry.record.url !== url || ownedByRotation(entry.record)) continue;
    // A claim of this process is one it holds already; a record "of" this pid was written by an earlier process.
    if (stale ? Number(stale[2]) === process.pid || anotherAlive(Number(stale[2])) : anotherAlive(entry.record.pid)) continue;
    const path = claim(dir, name, id);
    if (path !== undefined) claimed.push({ path, record: entry.record });
  }
  return claimed;
}

/** Gives a claimed record back (its outcome could not be settled now): the next command tries again. */
export function releasePending(entry: PendingEntry): void {
  const unclaimed = entry.path.replace(/\.claimed-\d+$/, '');
  if (unclaimed === entry.path) return;
  try {
    renameSync(entry.path, unclaimed);
  } catch {
    // Left claimed by a process that is about to end: the next command takes it over.
  }
}

/** Every record no process has claimed for settling, as it is on disk. */
export function listPending(configDir: string): PendingEntry[] {
  return listConfigDir(configDir, 'pending', PENDING_DIR)
    .filter((name) => name.endsWith('.json'))
    .map((name) => readPending(configDir, join(pendingDir(configDir), name)))
    .filter((entry): entry is PendingEntry => entry !== undefined);
}

/** Cheap test before anything is loaded: is there any record at all? */
export function anyPending(configDir: string): boolean {
  return listConfigDir(configDir, 'pending', PENDING_DIR).some((name) => name.includes('.json'));
}
