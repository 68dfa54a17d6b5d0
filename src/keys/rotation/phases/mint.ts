// The rotation's first phase: the new key, made through the same pending record and settlement as keys create
// and keys generate, or found again through that record after a crash or a lost answer.
import { existsSync } from 'node:fs';
import { ExitCode, TridentError, usageError } from '../../../core/errors.js';
import { isInConfigDir } from '../../../core/files/config-files.js';
import type { NewKey } from '../../client.js';
import { recordKeyMade } from '../../key-ages.js';
import { mintKey, type MintedKey } from '../../mint/mint.js';
import { checkedUntil, readPending, removePending, rewritePending } from '../../mint/pending.js';
import { describeKeys, settleRecord, type MintTools } from '../../mint/settle.js';
import { removeJournal, type StepRecord } from '../journal.js';
import { since, type RotationSession } from '../session.js';

export async function mintNewKey(session: RotationSession): Promise<void> {
  const j = session.journal;
  const tools = session.mintTools(await session.client('old'));
  if (j.pending !== undefined && (await settleInterruptedMint(session, tools, false))) return;
  const start = performance.now();
  const key: NewKey = {
    name: j.new_name,
    ...(j.old_key.scopes.length > 0 ? { scopes: j.old_key.scopes } : {}),
    ...(j.old_key.subaccount !== null ? { subaccount: j.old_key.subaccount } : {}),
  };
  const pair = j.method === 'local' ? { pem: await session.deps.generatePair(), stagingDir: j.staging_dir } : undefined;
  try {
    await session.ctx.interrupts.finishBefore('making the key', () =>
      mintKey(
        tools,
        { key, target: j.target_file, ...(pair ? { pair } : {}), rotation: session.path },
        {
          recorded: (entry) => session.save({ pending: entry.path }),
          placed: (made) => keyMade(session, made, start),
        },
      ),
    );
  } catch (error) {
    throw await mintFailed(session, error);
  }
  await session.save({ pending: undefined });
  if (session.ctx.interrupts.heldBack()) {
    const made = `the new key ${session.newKey().api_key} was made and stored in ${j.private_key_file}`;
    throw new TridentError(ExitCode.interrupted, `interrupted after ${made}`);
  }
}

async function keyMade(session: RotationSession, made: MintedKey, start: number): Promise<void> {
  const { api_key: id, name } = made.apiKey;
  if (made.warning) session.warn(`the keys service says: ${made.warning}`);
  await recordKeyMade(session.ctx, id);
  session.record({ step: 'mint', status: 'done', ms: since(start), method: session.journal.method, api_key: id, name });
  const file = made.file!;
  await session.save({ phase: 'stored', new_key: made.apiKey, private_key_file: file }, { step: 'store', status: 'done', ms: 0, file });
}

/**
 * A mint whose outcome the mint settled already (no key, or one deleted again, or unknown and reported)
 * ends the rotation: nothing was switched. One whose record stays (the service may still make the key, or
 * the check failed) leaves the rotation paused at "minting" for --resume or --abort.
 */
async function mintFailed(session: RotationSession, error: unknown): Promise<unknown> {
  const { pending } = session.journal;
  if (pending === undefined || !existsSync(pending)) await removeJournal(session.path);
  return error;
}

/**
 * After a crash or a lost answer while minting: the mint's record says what it made. A key whose private half
 * is in its place is taken (when `unwanted`, deleted); a key whose private half never arrived is deleted; a
 * key not listed yet is handed over to later keys commands, which delete it if it appears. True when the
 * rotation has its new key.
 */
export async function settleInterruptedMint(session: RotationSession, tools: MintTools, unwanted: boolean): Promise<boolean> {
  const { ctx, path } = session;
  const j = session.journal;
  if (j.pending !== undefined && !isInConfigDir(ctx.configDir, 'pending', j.pending)) {
    const outside = `the rotation journal ${path} names a pending record outside ${ctx.configDir}/pending: ${j.pending}`;
    throw usageError(outside, 'repair or remove the journal');
  }
  const entry = j.pending === undefined ? undefined : readPending(ctx.configDir, j.pending);
  if (entry === undefined) {
    await session.save({ pending: undefined });
    return false;
  }
  const start = performance.now();
  const record = unwanted ? { ...entry.record, unwanted: true } : entry.record;
  const keys = await tools.client.list();
  const result = await settleRecord(record, keys, tools);
  const step: StepRecord = { step: 'find-minted', status: 'done', ms: 0, name: record.sent_name };
  if (result.kind === 'not yet') {
    const { rotation: _, ...handedOver } = record;
    await rewritePending(entry, { ...handedOver, unwanted: true });
    const later = `keys commands against this service ${checkedUntil(record)} delete it if the service makes it late`;
    session.warn(`the interrupted mint of key "${record.sent_name}" is not listed yet: ${later}`);
    session.record({ ...step, ms: since(start), result: 'not listed yet' });
    await session.save({ pending: undefined });
    return false;
  }
  await removePending(entry);
  const made = result.keys;
  for (const key of made.filter((k) => k.outcome !== 'kept')) session.warn(`the interrupted mint: ${describeKeys([key], record)}`);
  const kept = made.find((key) => key.outcome === 'kept');
  const apiKey = kept && keys.find((key) => key.api_key === kept.id);
  const ids = (outcome: string) => made.filter((k) => k.outcome === outcome).map((k) => k.id);
  session.record({ ...step, ms: since(start), kept: kept?.id, deleted: ids('deleted'), unknown: ids('unknown') });
  if (kept?.outcome === 'kept' && apiKey) {
    await recordKeyMade(session.ctx, apiKey.api_key);
    await session.enter('stored', { new_key: apiKey, private_key_file: kept.file, pending: undefined });
    return true;
  }
  await session.save({ pending: undefined });
  return false;
}
