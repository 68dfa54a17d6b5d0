// keys prune: each overlap record whose time has come has its key deleted on the service, then its private half
// (the file trident made for it) and the record. The delete is journaled in the record before it is sent and
// after it is known, so that a prune killed anywhere is finished by the next one without deleting anything
// twice; a 404 counts as done. A key that a profile uses again, or that a rotation is working on, is never
// deleted: it is refused with one line, and its record stays.
import { ageText } from '../../core/term/times.js';
import { join } from 'node:path';
import type { Context } from '../../context.js';
import { ExitCode, TridentError, errorLines, outcomeUnknown } from '../../core/errors.js';
import { credentialPlaces, keyringOutOfReach } from '../../core/credentials/places.js';
import { takePidLock } from '../../core/files/pid-lock.js';
import type { KeysClient } from '../client.js';
import { keysBaseUrl, type KeysConnection } from '../connection.js';
import { crashHook } from '../crash-points.js';
import { forgetKey } from '../key-ages.js';
import { profilesUsing } from '../ledger/claims.js';
import { isTridentsOwnPlace } from '../mint/key-files.js';
import { journalsOfKey } from '../rotation/journal.js';
import { forgetOldPrunes, isDue, listOverlaps, noteDeleted, overlapDir, removeOverlap, saveOverlap, type OverlapEntry } from './records.js';

export type PruneOutcome = 'deleted' | 'already deleted' | 'would delete' | 'not due' | 'in use' | 'rotating' | 'other service' | 'failed';

export interface PruneResult {
  api_key: string;
  profile: string | null;
  kept_until: string;
  result: PruneOutcome;
  /** What went wrong, for 'failed', 'in use' and 'rotating'. */
  error?: string;
}

export interface PruneRun {
  results: PruneResult[];
  /** The exit code of each refused or failed record. */
  codes: number[];
}

/** Which profiles (or the flags and environment) use the key now: another shell may point a profile at a kept key while earlier deletes run. */
function usersOfKey(ctx: Context, connection: KeysConnection, fromProfile: boolean, keyId: string): string[] | undefined {
  const users = profilesUsing(ctx.settings.store.dir, keyId);
  if (!fromProfile && connection.signer.keyId === keyId) users.push('the key id given by --key-id or TRIDENT_KEY_ID');
  return users.length > 0 ? users : undefined;
}

/** One prune at a time per config dir: a second one is refused, never waited for (cron runs it again later). */
export function lockPrune(ctx: Context): () => void {
  const lock = takePidLock(join(overlapDir(ctx.configDir), 'prune'));
  if (lock.held) return lock.release;
  const pid = lock.holder.pid > 0 ? ` (pid ${lock.holder.pid})` : '';
  throw new TridentError(ExitCode.usage, `another trident keys prune${pid} is running on this config dir`, {
    hint: 'let it finish; a prune killed midway is finished by the next one',
  });
}

function refusal(ctx: Context, entry: OverlapEntry, result: 'in use' | 'rotating', why: string, hint: string): PruneResult {
  ctx.io.stderr.write(errorLines(`key ${entry.record.api_key} is due for pruning but ${why}: not deleted, its record is kept`, hint));
  return { ...summary(entry), result, error: why };
}

function inUse(ctx: Context, entry: OverlapEntry, users: string[]): PruneResult {
  const hint = `point ${users[0]} at another key (trident keys rotate), or remove ${entry.path} to keep the key for good`;
  return refusal(ctx, entry, 'in use', `${users.join(' and ')} uses it now`, hint);
}

const summary = ({ record }: OverlapEntry) => ({ api_key: record.api_key, profile: record.profile, kept_until: record.kept_until });

const CLEANUP_LEFT = 'PRUNE_CLEANUP_LEFT';

/**
 * A keyring that cannot be asked (no session bus, locked) fails this record only: the key is gone and its record
 * says so, and the next prune that can reach the keyring removes the entry and the record.
 */
async function removePrivateHalf(ctx: Context, apiKey: string, place: string): Promise<void> {
  try {
    await credentialPlaces(ctx.env).remove(place);
  } catch (error) {
    throw keyringOutOfReach(
      error,
      (reason) => `key ${apiKey} was deleted, but its keyring entry ${place} could not be removed (${reason})`,
      'unlock the OS keyring (or start its session) and run trident keys prune again: it removes the entry and the record',
      CLEANUP_LEFT,
    );
  }
}

/**
 * Journals the delete in the record (`deleting_since`) unless a profile uses the key now: both under the settings
 * lock, so that no profile can be pointed at the key in between (`config set` refuses a key being deleted).
 */
async function markDeleting(ctx: Context, entry: OverlapEntry, usedBy: () => string[] | undefined): Promise<OverlapEntry | string[]> {
  return ctx.settings.store.whileLocked(async () => {
    const users = usedBy();
    if (users) return users;
    return saveOverlap(ctx.configDir, { ...entry.record, deleting_since: ctx.now().toISOString() });
  });
}

/** The key's delete, journaled in its record, then the local clean-up. */
async function pruneOne(
  ctx: Context,
  entry: OverlapEntry,
  client: () => Promise<KeysClient>,
  usedBy: () => string[] | undefined,
): Promise<PruneResult> {
  const checkpoint = crashHook(ctx.env);
  let { record } = entry;
  let outcome: PruneOutcome = 'already deleted';
  if (!record.deleted) {
    if (record.deleting_since === undefined) {
      const marked = await markDeleting(ctx, entry, usedBy);
      if (Array.isArray(marked)) return inUse(ctx, entry, marked);
      record = marked.record;
    }
    await checkpoint('prune-deleting');
    const answer = await (await client()).delete(record.api_key);
    outcome = answer === 'deleted' ? 'deleted' : 'already deleted';
    record = (await saveOverlap(ctx.configDir, { ...record, deleted: true })).record;
    await checkpoint('prune-deleted');
  }
  const file = record.private_key_file;
  if (record.file_created_by_trident && file !== null && isTridentsOwnPlace(ctx, record.api_key, file))
    await removePrivateHalf(ctx, record.api_key, file);
  await forgetKey(ctx, record.api_key);
  await noteDeleted(ctx.configDir, record.api_key, ctx.now());
  await removeOverlap(entry);
  ctx.log.info(`prune: key ${record.api_key} ${outcome === 'deleted' ? 'deleted' : 'was gone already'} (kept until ${record.kept_until})`);
  return { ...summary(entry), result: outcome };
}

function failed(ctx: Context, entry: OverlapEntry, error: TridentError): PruneResult {
  const id = entry.record.api_key;
  const unknown: boolean = outcomeUnknown(error);
  const message =
    error.code === CLEANUP_LEFT
      ? error.message
      : unknown
        ? `the delete of key ${id} has an unknown outcome (${error.message}): its record is kept`
        : `key ${id} was not deleted: ${error.message}`;
  const hint = unknown
    ? 'run trident keys prune again: it sends the delete again, and a key found gone counts as deleted'
    : (error.hint ?? 'run trident keys prune again later: the record is kept');
  ctx.io.stderr.write(errorLines(message, hint));
  return { ...summary(entry), result: 'failed', error: error.message };
}

/**
 * Goes through every record, the earliest due first. `client` is opened only when a key is to be deleted, so
 * that a prune with nothing due sends nothing.
 */
export async function pruneOverlaps(
  ctx: Context,
  connection: KeysConnection,
  opts: { dryRun: boolean; keyIdFromProfile: boolean },
  client: () => Promise<KeysClient>,
): Promise<PruneRun> {
  const entries = listOverlaps(ctx.configDir).sort((a, b) => Date.parse(a.record.kept_until) - Date.parse(b.record.kept_until));
  const run: PruneRun = { results: [], codes: [] };
  const now = ctx.now();
  if (!opts.dryRun) await forgetOldPrunes(ctx.configDir, now);
  for (const entry of entries) {
    const { record } = entry;
    const push = (result: PruneResult, code?: number) => {
      run.results.push(result);
      if (code !== undefined) run.codes.push(code);
    };
    if (keysBaseUrl(record.url).href !== connection.baseUrl.href) {
      ctx.log.info(`prune: key ${record.api_key} belongs to ${record.url}, not ${connection.baseUrl.href}: left for a prune against it`);
      push({ ...summary(entry), result: 'other service' });
      continue;
    }
    if (!isDue(record, now) && record.deleting_since === undefined) {
      const left = ageText((Date.parse(record.kept_until) - now.getTime()) / 1000);
      ctx.log.info(`prune: key ${record.api_key} is kept until ${record.kept_until} (in ${left}): not due`);
      push({ ...summary(entry), result: 'not due' });
      continue;
    }
    const usedBy = () => usersOfKey(ctx, connection, opts.keyIdFromProfile, record.api_key);
    const users = record.deleted ? undefined : usedBy();
    if (users) {
      push(inUse(ctx, entry, users), ExitCode.usage);
      continue;
    }
    const journal = record.deleted ? undefined : journalsOfKey(ctx.configDir, record.api_key)[0];
    if (journal) {
      const hint = 'finish it with trident keys rotate --resume or --abort, then prune again';
      push(refusal(ctx, entry, 'rotating', `a rotation is working on it (journal ${journal.path})`, hint), ExitCode.usage);
      continue;
    }
    if (opts.dryRun) {
      push({ ...summary(entry), result: 'would delete' });
      continue;
    }
    try {
      const result = await pruneOne(ctx, entry, client, usedBy);
      push(result, result.result === 'in use' ? ExitCode.usage : undefined);
    } catch (error) {
      if (!(error instanceof TridentError)) throw error;
      push(failed(ctx, entry, error), error.exitCode);
    }
  }
  return run;
}
