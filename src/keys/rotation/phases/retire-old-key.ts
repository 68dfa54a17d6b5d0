// The last phases: the old key deleted on the service (signed by the new key), then the local clean-up that
// ends every rotation that went forward, with or without that delete.
import { ExitCode, TridentError } from '../../../core/errors.js';
import { credentialPlaces, keyringOutOfReach } from '../../../core/credentials/places.js';
import { PRIVATE_KEY_ENV } from '../../connection.js';
import { forgetKey } from '../../key-ages.js';
import { profilesUsing } from '../../ledger/claims.js';
import { confirmDeleted, forgetDeleted, noteDeleted, overlapPath, readOverlap, saveOverlap } from '../../overlap/records.js';
import { removeJournal, type StepRecord } from '../journal.js';
import { since, type RotationResult, type RotationSession } from '../session.js';

/**
 * 404 counts as deleted. A failure ends the rotation with both keys valid, and says so. So does another profile
 * that uses the old key now: looked at under the settings lock, against a `config set` of that profile, which
 * refuses a key a rotation in progress names.
 */
export async function deleteOldKey(session: RotationSession): Promise<RotationResult | undefined> {
  const j = session.journal;
  const old = j.old_key.api_key;
  const owner = j.owner.mode === 'profile' ? j.owner.profile : undefined;
  const { ctx } = session;
  // The delete is noted as a `keys delete`'s is (ledger/delete.ts): once the journal is gone, the note is what keeps
  // a profile from being pointed at the deleted key.
  const others = await ctx.settings.store.whileLocked(async () => {
    const users = profilesUsing(ctx.settings.store.dir, old, owner);
    if (users.length === 0) await noteDeleted(ctx.configDir, old, ctx.now(), 'keys rotate', j.url);
    return users;
  });
  if (others.length > 0) {
    const why = `${others.join(' and ')} uses it now`;
    session.record({ step: 'delete-old', status: 'skipped', ms: 0, api_key: old, reason: why });
    session.warn(`the old key ${old} was not deleted: ${why}; both keys are valid`);
    return finishRotation(session);
  }
  const start = performance.now();
  let outcome: string;
  try {
    outcome = await (await session.client('new')).delete(old);
  } catch (error) {
    await forgetDeleted(ctx.configDir, old).catch(() => undefined);
    if (!(error instanceof TridentError)) throw error;
    session.record({ step: 'delete-old', status: 'failed', ms: since(start), api_key: old, error: error.message });
    const newId = session.newKey().api_key;
    const inUse = j.owner.mode === 'profile' ? `profile "${j.owner.profile}" uses the new key ${newId}` : `the new key ${newId} works`;
    session.warn(`the old key ${old} was not deleted (${error.message}): both keys are valid; ${inUse}; the old key's file is kept`);
    const result = await finishRotation(session);
    const problem = new TridentError(error.exitCode, `the rotation is done but the old key ${old} could not be deleted: ${error.message}`, {
      hint: `both keys are valid; delete the old one with: trident keys delete ${old}`,
    });
    return { ...result, exitCode: error.exitCode, problem };
  }
  await confirmDeleted(ctx.configDir, old);
  const step: StepRecord = { step: 'delete-old', status: 'done', ms: since(start), api_key: old, result: outcome };
  await session.enter('old-deleted', { old_key_deleted: true }, step);
  return undefined;
}

/**
 * --keep-old-for: the old key stays, recorded with the time from which keys prune deletes it. A finish that is
 * run again (--resume after a kill) keeps the time the first one recorded.
 */
async function recordOverlap(session: RotationSession, keepForS: number): Promise<void> {
  const { ctx, journal: j } = session;
  const old = j.old_key;
  const newId = session.newKey().api_key;
  const earlier = readOverlap(ctx.configDir, overlapPath(ctx.configDir, old.api_key))?.record;
  const now = ctx.now();
  const keptUntil = earlier?.rotated_to === newId ? earlier.kept_until : new Date(now.getTime() + keepForS * 1000).toISOString();
  await saveOverlap(ctx.configDir, {
    version: 1,
    api_key: old.api_key,
    name: old.name,
    profile: j.owner.mode === 'profile' ? j.owner.profile : null,
    url: j.url,
    kept_until: keptUntil,
    rotated_to: newId,
    recorded_at: earlier?.recorded_at ?? now.toISOString(),
    private_key_file: old.private_key_file,
    file_created_by_trident: old.file_created_by_trident,
  });
  session.record({
    step: 'delete-old',
    status: 'skipped',
    ms: 0,
    api_key: old.api_key,
    reason: `--keep-old-for: kept until ${keptUntil}`,
    kept_until: keptUntil,
  });
}

/**
 * A keyring that cannot be asked (no session bus, locked) stops the clean-up with exit 4: the old key is gone, and
 * the journal stays, so that --resume with the keyring reachable removes the entry and ends the rotation.
 */
async function removeOldPrivateHalf(session: RotationSession, file: string): Promise<void> {
  try {
    await credentialPlaces(session.ctx.env).remove(file);
  } catch (error) {
    throw keyringOutOfReach(
      error,
      (reason) => `the old key is deleted, but its keyring entry ${file} could not be removed (${reason})`,
      'unlock the OS keyring (or start its session)',
    );
  }
}

/** Local clean-up: the old key's private half (file or keyring entry) goes only if trident chose its place and the old key is gone. */
export async function finishRotation(session: RotationSession): Promise<RotationResult> {
  const j = session.journal;
  if (j.keep_old_for_s !== undefined) await recordOverlap(session, j.keep_old_for_s);
  else if (j.keep_old) session.record({ step: 'delete-old', status: 'skipped', ms: 0, api_key: j.old_key.api_key, reason: '--keep-old' });
  const file = j.old_key.private_key_file;
  const start = performance.now();
  if (j.old_key_deleted && j.old_key.file_created_by_trident && file !== null) {
    await removeOldPrivateHalf(session, file);
    session.record({ step: 'remove-old-file', status: 'done', ms: since(start), file });
  } else {
    const reason = !j.old_key_deleted
      ? 'the old key was not deleted'
      : file === null
        ? `the old key came from ${PRIVATE_KEY_ENV}`
        : "it is not trident's own place for the key (its keyring entry or <config dir>/keys/<api_key>.pem): a file elsewhere is left to you";
    session.record({ step: 'remove-old-file', status: 'skipped', ms: 0, file: file ?? undefined, reason });
  }
  await removeJournal(session.path);
  if (j.old_key_deleted) await forgetKey(session.ctx, j.old_key.api_key);
  return { outcome: 'rotated', journal: j, exitCode: ExitCode.ok };
}
