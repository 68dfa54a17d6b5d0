// Undoing a rotation: the application given the old key again, the profile restored, the new key deleted on
// the service (signed by the old key) and its private half removed (its file or keyring entry).
import { ExitCode, TridentError } from '../../../core/errors.js';
import { credentialPlaces } from '../../../core/credentials/places.js';
import { forgetKey } from '../../key-ages.js';
import { PHASES, removeJournal, type Phase } from '../journal.js';
import { since, type RotationResult, type RotationSession } from '../session.js';
import { redeployOldKey } from './application.js';
import { settleInterruptedMint } from './mint.js';

const phaseIndex = (phase: Phase) => PHASES.indexOf(phase);

/**
 * Back to the old key. `cause` is why (none: --abort). An abort ends with exit 0 once all is undone, even
 * when it finishes the rollback of a rotation that had failed.
 */
export async function rollBack(session: RotationSession, cause?: TridentError, aborting = false): Promise<RotationResult> {
  const j = session.journal;
  if (j.phase !== 'rolling-back' && j.phase !== 'rolling-back-app') {
    const from = j.phase;
    const appMayHoldNewKey =
      Boolean(j.hooks?.deploy) && phaseIndex(from) >= phaseIndex('deploying') && phaseIndex(from) <= phaseIndex('app-verified');
    const rollback = { from, reason: cause?.message ?? 'aborted', exit_code: cause?.exitCode ?? ExitCode.ok };
    await session.enter(appMayHoldNewKey ? 'rolling-back-app' : 'rolling-back', { rollback });
  }
  if (j.phase === 'rolling-back-app') {
    await redeployOldKey(session);
    await session.enter('rolling-back');
  }
  const { from, reason } = j.rollback!;
  const exitCode = j.rollback!.exit_code as ExitCode;
  if (j.owner.mode === 'profile' && phaseIndex(from) >= phaseIndex('switching')) await restoreProfile(session, j.owner.profile);
  await deleteNewKeys(session, from);
  await removeNewKeyFiles(session);
  await removeJournal(session.path);
  if (j.new_key) await forgetKey(session.ctx, j.new_key.api_key);
  if (aborting || exitCode === ExitCode.ok) return { outcome: 'aborted', journal: j, exitCode: ExitCode.ok };
  const inUse =
    j.owner.mode === 'profile'
      ? `profile "${j.owner.profile}" uses the old key ${j.old_key.api_key} again`
      : `the old key ${j.old_key.api_key} stays in use`;
  const app = j.steps.some((step) => step.step === 'rollback-deploy' && step.status === 'done')
    ? ', the application got the old key back'
    : '';
  const problem = new TridentError(exitCode, `${reason}; the rotation was rolled back: ${inUse}${app} and the new key was deleted`, {
    hint: cause?.hint,
  });
  return { outcome: 'rolled back', journal: j, exitCode, problem };
}

async function restoreProfile(session: RotationSession, profile: string): Promise<void> {
  const start = performance.now();
  const before = session.journal.profile_before ?? {};
  await session.ctx.settings.store.update(profile, { 'keys.keyId': before.keyId, 'keys.privateKeyFile': before.privateKeyFile });
  session.record({ step: 'restore-profile', status: 'done', ms: since(start), profile, api_key: before.keyId });
}

/** The new key; if the rotation stopped while minting, whatever that mint provably made. */
async function deleteNewKeys(session: RotationSession, from: Phase): Promise<void> {
  const j = session.journal;
  const start = performance.now();
  const client = await session.client('old');
  if (from === 'minting' && !j.new_key) {
    if (j.pending !== undefined) await settleInterruptedMint(session, session.mintTools(client), true);
    return;
  }
  const id = session.newKey().api_key;
  const result = await client.delete(id);
  session.record({ step: 'delete-new', status: 'done', ms: since(start), api_keys: [id], results: [result] });
}

async function removeNewKeyFiles(session: RotationSession): Promise<void> {
  const file = session.journal.new_key ? session.journal.private_key_file : undefined;
  const removed = file !== undefined && (await credentialPlaces(session.ctx.env).remove(file));
  session.record({ step: 'remove-new-files', status: removed ? 'done' : 'skipped', ms: 0, files: removed ? [file] : [] });
}
