// Overlap records: an old key that `keys rotate --keep-old-for <age>` kept alive beside its successor, so that
// instances still holding it keep working until they have switched (AWS Secrets Manager's AWSPREVIOUS). One
// file per key, <config dir>/overlap/<api_key>.json (0600, replaced atomically), trusted only as the config dir
// is: a planted record would make `keys prune` delete a key. `keys prune` deletes the key once `kept_until`
// has passed, journaling the delete in the record itself (`deleting_since`, then `deleted`), and removes the
// record last, so that a prune killed at any point is finished by the next one.
import { join } from 'node:path';
import { usageError } from '../../core/errors.js';
import { assertConfigDir, listConfigDir, readConfigFile } from '../../core/files/config-files.js';
import { preflightSecretDir, removeSecretFile, writeSecretFile } from '../../core/files/secret-file.js';
import { processAlive, processStartTime } from '../../core/process-identity.js';
import { checkKeyId, keyIdProblem } from '../key-ids.js';

export interface OverlapRecord {
  version: 1;
  api_key: string;
  name: string;
  /** The profile the key was rotated out of; null when it came from flags or the environment. */
  profile: string | null;
  /** The key service's base URL: only a prune against that service deletes the key. */
  url: string;
  /** When the key may be deleted (ISO time). */
  kept_until: string;
  /** The key that replaced it. */
  rotated_to: string;
  recorded_at: string;
  /** null when the PEM came from TRIDENT_PRIVATE_KEY. */
  private_key_file: string | null;
  /** <config dir>/keys/<api_key>.pem: trident wrote it, so it goes with the key. */
  file_created_by_trident: boolean;
  /** Set before the DELETE is sent: from then on the key may be gone. */
  deleting_since?: string;
  /** The service no longer has the key; only the local clean-up is left. */
  deleted?: boolean;
}

export interface OverlapEntry {
  path: string;
  record: OverlapRecord;
}

const OVERLAP = 'overlap';
const OVERLAP_DIR = 'overlap records directory';

export const overlapDir = (configDir: string): string => join(configDir, OVERLAP);

export const overlapPath = (configDir: string, apiKey: string): string => join(overlapDir(configDir), `${checkKeyId(apiKey)}.json`);

/** A time as trident writes it (toISOString): Date.parse would also take "0" or "Nov 1", and prune too early. */
const isIsoTime = (value: unknown): boolean =>
  typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/.test(value) && Number.isFinite(Date.parse(value));

/**
 * Every field prune acts on has the type trident wrote: a `deleted` of "no" would be taken as true, skip the
 * check that no profile uses the key, and remove its private half.
 */
function isRecord(value: unknown): value is OverlapRecord {
  const record = value as OverlapRecord;
  return (
    typeof value === 'object' &&
    value !== null &&
    record.version === 1 &&
    typeof record.api_key === 'string' &&
    typeof record.url === 'string' &&
    typeof record.rotated_to === 'string' &&
    isIsoTime(record.kept_until) &&
    (record.private_key_file === null || typeof record.private_key_file === 'string') &&
    typeof record.file_created_by_trident === 'boolean' &&
    (record.deleting_since === undefined || isIsoTime(record.deleting_since)) &&
    (record.deleted === undefined || typeof record.deleted === 'boolean')
  );
}

/** The record at `path`, or undefined when there is none; one that does not parse or was planted is exit 2. */
export function readOverlap(configDir: string, path: string): OverlapEntry | undefined {
  const text = readConfigFile(configDir, path, 'overlap record');
  if (text === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    parsed = (error as Error).message;
  }
  if (!isRecord(parsed)) {
    throw usageError(
      `the overlap record ${path} is not one this version of trident understands`,
      'it keeps an old key for keys prune: repair it, or remove it and delete the key yourself with trident keys delete',
    );
  }
  return { path, record: parsed };
}

/** Every record in the config dir, by key id. */
export function listOverlaps(configDir: string): OverlapEntry[] {
  return listConfigDir(configDir, OVERLAP, OVERLAP_DIR)
    .filter((name) => name.endsWith('.json'))
    .map((name) => readOverlap(configDir, join(overlapDir(configDir), name)))
    .filter((entry): entry is OverlapEntry => entry !== undefined);
}

/** Before a rotation that will write a record starts: the directory is one trident will read back (exit 2 otherwise). */
export function preflightOverlap(configDir: string): void {
  assertConfigDir(configDir, OVERLAP, OVERLAP_DIR);
  preflightSecretDir(overlapDir(configDir));
}

export async function saveOverlap(configDir: string, record: OverlapRecord): Promise<OverlapEntry> {
  const path = overlapPath(configDir, record.api_key);
  assertConfigDir(configDir, OVERLAP, OVERLAP_DIR);
  await writeSecretFile(path, `${JSON.stringify(record, null, 2)}\n`, { force: true });
  return { path, record };
}

export async function removeOverlap(entry: OverlapEntry): Promise<void> {
  await removeSecretFile(entry.path);
}

/** Whether a record's time has come at `now`. */
export const isDue = (record: OverlapRecord, now: Date): boolean => Date.parse(record.kept_until) <= now.getTime();

/**
 * What a prune or a `keys delete` leaves of a key it deleted: `<api_key>.pruned`, holding when (and, after a
 * `keys delete`, that command's name). For a while (PRUNED_KEPT_MS), `config set keys.keyId` refuses the key
 * saying so: a command started from the record a moment before the delete would otherwise point a profile at a
 * key the service no longer has. A `keys delete` writes it before it sends the delete, with a second line naming
 * its process and the service (`sending <pid> <start> <url>`), and drops that line once the service answered:
 * a note that still has it when its process is gone was cut short, and the next keys command against that
 * service looks whether the key is still there.
 */
const prunedPath = (configDir: string, apiKey: string): string => join(overlapDir(configDir), `${checkKeyId(apiKey)}.pruned`);

/** How long a note of a deleted key is kept. */
export const PRUNED_KEPT_MS = 7 * 24 * 3600 * 1000;

interface DeletedNote {
  at: string;
  by: string;
  /** A `keys delete` that has not heard the service's answer yet. */
  sending?: { pid: number; start?: string; url: string };
}

/** Notes that `apiKey` is deleted by `by` (a command of trident), or about to be by this process at `sendingTo`. */
export async function noteDeleted(
  configDir: string,
  apiKey: string,
  at: Date,
  by: 'keys prune' | 'keys delete' | 'keys rotate' = 'keys prune',
  sendingTo?: string,
): Promise<void> {
  assertConfigDir(configDir, OVERLAP, OVERLAP_DIR);
  const first = `${at.toISOString()}${by === 'keys prune' ? '' : ` ${by}`}\n`;
  const sending = sendingTo === undefined ? '' : `sending ${process.pid} ${processStartTime(process.pid) ?? '-'} ${sendingTo}\n`;
  await writeSecretFile(prunedPath(configDir, apiKey), first + sending, { force: true });
}

/** The service answered that it deleted the key: the note stays, no longer waiting for an answer. */
export async function confirmDeleted(configDir: string, apiKey: string): Promise<void> {
  const note = deletedNote(configDir, prunedPath(configDir, apiKey));
  if (note?.sending === undefined) return;
  await writeSecretFile(prunedPath(configDir, apiKey), `${note.at} ${note.by}\n`, { force: true });
}

/** Takes back a note of a delete that did not happen. */
export async function forgetDeleted(configDir: string, apiKey: string): Promise<void> {
  await removeSecretFile(prunedPath(configDir, apiKey));
}

/** When the note at `path` says its key was deleted, and by which command, if it says so as trident writes it. */
function deletedNote(configDir: string, path: string): DeletedNote | undefined {
  const [first = '', second = ''] = (readConfigFile(configDir, path, 'note of a deleted key') ?? '').split('\n');
  const [at, ...by] = first.trim().split(' ');
  if (!isIsoTime(at)) return undefined;
  const [word, pid, start, url] = second.trim().split(' ');
  const sending = word === 'sending' && Number(pid) > 0 && url ? { pid: Number(pid), ...(start !== '-' ? { start } : {}), url } : undefined;
  return { at: at!, by: by.join(' ') || 'keys prune', ...(sending ? { sending } : {}) };
}

/** A note's delete whose process ended before the service's answer was noted. */
const cutShort = (note: DeletedNote): boolean => note.sending !== undefined && !processAlive(note.sending.pid, note.sending.start);

/** The keys whose delete against `url` was cut short: whether the service deleted them is not known yet. */
export function cutShortDeletes(configDir: string, url?: string): string[] {
  return listConfigDir(configDir, OVERLAP, OVERLAP_DIR).flatMap((name) => {
    const apiKey = name.endsWith('.pruned') ? name.slice(0, -'.pruned'.length) : undefined;
    if (apiKey === undefined || keyIdProblem(apiKey) !== undefined) return [];
    const note = deletedNote(configDir, join(overlapDir(configDir), name));
    return note && cutShort(note) && (url === undefined || note.sending!.url === url) ? [apiKey] : [];
  });
}

/** The cut-short note of `apiKey` as it is now (under the settings lock, before it is acted on). */
export function cutShortDelete(configDir: string, apiKey: string): DeletedNote | undefined {
  const note = deletedNote(configDir, prunedPath(configDir, apiKey));
  return note && cutShort(note) ? note : undefined;
}

/** Removes the notes of keys deleted longer than PRUNED_KEPT_MS ago (and any that do not say when). */
export async function forgetOldPrunes(configDir: string, now: Date): Promise<void> {
  for (const name of listConfigDir(configDir, OVERLAP, OVERLAP_DIR).filter((entry) => entry.endsWith('.pruned'))) {
    const path = join(overlapDir(configDir), name);
    const note = deletedNote(configDir, path);
    if (note === undefined || now.getTime() - Date.parse(note.at) > PRUNED_KEPT_MS) await removeSecretFile(path);
  }
}

/** Why a profile must not be pointed at `keyId`: trident is deleting it, or has deleted it; else undefined. */
export function keyBeingDeleted(configDir: string, keyId: string | undefined): string | undefined {
  // An id that cannot name a file has no record (and is refused where it is used).
  if (!keyId || keyIdProblem(keyId) !== undefined) return undefined;
  const record = readOverlap(configDir, overlapPath(configDir, keyId))?.record;
  const note = deletedNote(configDir, prunedPath(configDir, keyId));
  return record?.deleted
    ? `was deleted by trident keys prune`
    : record?.deleting_since !== undefined
      ? `is being deleted by trident keys prune (since ${record.deleting_since})`
      : note === undefined
        ? undefined
        : note.sending === undefined
          ? `was deleted by trident ${note.by} at ${note.at}`
          : cutShort(note)
            ? `was being deleted by a trident ${note.by} cut short at ${note.at}: the next keys command against ${note.sending.url} finds out whether the service deleted it`
            : `is being deleted by trident ${note.by} (since ${note.at})`;
}
