// A create or generate whose answer was lost (the connection dropped after the request was sent), unusable
// (a 2xx that cannot be read) or a 5xx (the service may have acted first) may have made a key. It is never
// sent again: its pending record is settled at once (settle.ts), and the error says what was found and done.
import { ExitCode, TridentError } from '../../core/errors.js';
import type { ApiKey } from '../client.js';
import { UNKNOWN_OUTCOME, isUnknownOutcome, unknownOutcomeError } from './outcomes.js';
import { checkedUntil, removePending, type PendingEntry } from './pending.js';
import { describeKeys, settleRecord, type MintTools } from './settle.js';

/** True when the service may have minted a key whose answer did not reach us: no answer, a 2xx we cannot read, a 5xx. */
export function answerLost(error: unknown): error is TridentError {
  if (isUnknownOutcome(error)) return true;
  return (
    error instanceof TridentError && error.status !== undefined && ((error.status >= 200 && error.status < 300) || error.status >= 500)
  );
}

/**
 * Settles the record of a request whose answer was lost. Returns the key when a create's key was found and
 * kept (its private half proves it ours); otherwise throws the error to report. The record stays, for later
 * keys commands, when the check itself failed or no key is listed yet.
 */
export async function settleLostAnswer(
  tools: MintTools,
  pending: PendingEntry,
  error: TridentError,
): Promise<{ apiKey: ApiKey; file: string }> {
  const { verb, sent_name: name, staged_file: staged } = pending.record;
  let keys: ApiKey[];
  let result;
  try {
    keys = await tools.client.list();
    result = await settleRecord(pending.record, keys, tools, true);
  } catch {
    throw unknownOutcomeError(error, verb, name, staged);
  }
  if (result.kind === 'not yet') throw notListedYet(error, pending);
  const kept = result.keys.find((key) => key.outcome === 'kept');
  const apiKey = kept && keys.find((key) => key.api_key === kept.id);
  if (kept?.outcome === 'kept' && apiKey && verb === 'create') return { apiKey, file: kept.file };
  await removePending(pending);
  const unknown = result.keys.some((key) => key.outcome === 'unknown');
  const deleted = result.keys.some((key) => key.outcome === 'deleted');
  throw new TridentError(
    unknown ? ExitCode.unavailable : error.exitCode,
    `${unknown ? 'outcome unknown: ' : ''}the ${verb} request for key "${name}" failed (${error.message}); a check found: ${describeKeys(result.keys, pending.record)}`,
    {
      hint: unknown
        ? 'check with trident keys list; delete a key nobody holds with trident keys delete <api_key>'
        : deleted || result.keys.length === 0
          ? 'nothing is left behind: run the command again'
          : undefined,
      status: error.status,
      ...(unknown ? { code: UNKNOWN_OUTCOME } : {}),
      cause: error,
    },
  );
}

/**
 * A check right after the failure found no key: the service may still be making it (a gateway's 504, a timeout
 * that gave up first). The record stays, and with it the staged private half of a create, for later commands.
 */
export function notListedYet(error: TridentError, pending: PendingEntry): TridentError {
  const { sent_name: name, verb, staged_file: staged, rotation } = pending.record;
  const late =
    verb === 'generate'
      ? 'delete the key if the service makes it late (nobody holds its private half)'
      : `keep the key with its private half if the service makes it late, else remove the staged file ${staged}`;
  const who =
    rotation === undefined
      ? `keys commands against this service ${checkedUntil(pending.record)}`
      : `trident keys rotate --resume or --abort (checking ${checkedUntil(pending.record)})`;
  return new TridentError(
    error.exitCode,
    `the ${verb} request for key "${name}" failed (${error.message}); a check found no key of that request yet`,
    {
      hint: `the request stays recorded: ${who} check again and ${late}`,
      status: error.status,
      cause: error,
    },
  );
}
