// Pending records (DESIGN §4): before a create or generate is sent, what it asks for is written to
// <config dir>/pending/<id>.json (0600 in a 0700 directory, fsynced), and removed once its outcome is settled.
// A process killed in between leaves the record behind for the next keys command against that service.
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { preflightSecretDir, removeSecretFile, writeSecretFile } from '../../core/files/secret-file.js';

export interface PendingRecord {
  version: 1;
  verb: 'generate' | 'create';
  name: string;
  /** The key service's base URL: only a command against that service settles the record. */
  url: string;
  written_at: string;
  /** The process that sent the request: while it lives, nobody else settles its record. */
  pid: number;
  /** Ids of the keys of that name before the request; null when not listed (a create proves its key by signing). */
  before: string[] | null;
  scopes: string[];
  /** A pair made here: where its private half waits for the key's id. */
  staged_file?: string;
  /** --out as an absolute path, "-" for stdout, null for <config dir>/keys/<api_key>.pem. */
  target_file: string | null;
  force?: boolean;
  /** create --public-key: the private half is the user's own, wherever they keep it. */
  uploaded?: boolean;
}

export interface PendingEntry {
  path: string;
  record: PendingRecord;
}

export const pendingDir = (configDir: string): string => join(configDir, 'pending');

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
  preflightSecretDir(pendingDir(configDir));
}

/** Written and fsynced before the request is sent. */
export async function writePending(configDir: string, record: Omit<PendingRecord, 'version' | 'pid' | 'written_at'>, now: Date): Promise<PendingEntry> {
  const full: PendingRecord = { version: 1, ...record, written_at: now.toISOString(), pid: process.pid };
  const path = join(pendingDir(configDir), `${randomBytes(8).toString('hex')}.json`);
  await writeSecretFile(path, JSON.stringify(full, null, 2));
  return { path, record: full };
}

export async function removePending(entry: PendingEntry): Promise<void> {
  await removeSecretFile(entry.path);
}

function processAlive(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const CLAIMED = /^([0-9a-f]+)\.json\.claimed-(\d+)$/;

function readRecord(path: string): PendingRecord | undefined {
  try {
    const record = JSON.parse(readFileSync(path, 'utf8')) as PendingRecord;
    return record.version === 1 && typeof record.name === 'string' && typeof record.url === 'string' ? record : undefined;
  } catch {
    return undefined;
  }
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

/**
 * The records for `url` that no live process is working on, each claimed by this process. A claim left by a
 * dead process is taken over.
 */
export function claimPending(configDir: string, url: string): PendingEntry[] {
  const dir = pendingDir(configDir);
  if (!existsSync(dir)) return [];
  const claimed: PendingEntry[] = [];
  for (const name of readdirSync(dir).sort()) {
    const stale = CLAIMED.exec(name);
    const id = stale ? stale[1]! : /^([0-9a-f]+)\.json$/.exec(name)?.[1];
    if (id === undefined) continue;
    const record = readRecord(join(dir, name));
    if (record === undefined || record.url !== url) continue;
    // A claim of this process is one it holds already; a record "of" this pid was written by an earlier process.
    if (stale ? Number(stale[2]) === process.pid || processAlive(Number(stale[2])) : processAlive(record.pid)) continue;
    const path = claim(dir, name, id);
    if (path !== undefined) claimed.push({ path, record });
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

/** Cheap test before anything is loaded: is there any record at all? */
export function anyPending(configDir: string): boolean {
  const dir = pendingDir(configDir);
  return existsSync(dir) && readdirSync(dir).some((name) => name.includes('.json'));
}
