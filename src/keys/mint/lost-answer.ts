// A generate or create whose answer was lost (the connection dropped after the request was sent), unusable
// (a 2xx that cannot be read) or a 5xx (the service may have acted first) may have made a key. For generate,
// the private half never arrived: its pending record is settled at once (settle.ts), and the one new key of
// that name is deleted again if trident can prove it its own (DESIGN §4). For create, the private half is
// here: the key that accepts a request signed with it is ours, and it is kept.
import type { KeyObject } from 'node:crypto';
import type { Context } from '../../context.js';
import { TridentError } from '../../core/errors.js';
import type { ApiKey, KeysClient } from '../client.js';
import type { KeysConnection } from '../connection.js';
import { keyIdProblem } from '../key-ids.js';
import { isUnknownOutcome, unknownOutcomeError, unprovenOutcomeError } from './outcomes.js';
import { checkedUntil, removePending, type PendingEntry } from './pending.js';
import { liveTools, settleRecord } from './settle.js';

/** Ids of the keys named `name` now. */
export async function idsNamed(client: KeysClient, name: string): Promise<Set<string>> {
  return new Set((await client.list()).filter((key) => key.name === name).map((key) => key.api_key));
}

/** True when the service may have minted a key whose private half did not reach us: no answer, a 2xx we cannot read, a 5xx. */
export function answerLost(error: unknown): error is TridentError {
  if (isUnknownOutcome(error)) return true;
  return error instanceof TridentError && error.status !== undefined && ((error.status >= 200 && error.status < 300) || error.status >= 500);
}

/**
 * Settles the pending record of a generate whose answer was lost, at once; the error to report says what was
 * found and done. If the check itself fails, the record stays for the next keys command.
 */
export async function settleLostGenerate(ctx: Context, connection: KeysConnection, client: KeysClient, pending: PendingEntry, error: TridentError): Promise<TridentError> {
  const { name } = pending.record;
  let settled;
  try {
    settled = await settleRecord(pending.record, await client.list(), liveTools(ctx, connection, client));
  } catch {
    return unknownOutcomeError(error, 'generate', name);
  }
  if (settled.kind === 'not yet') return notListedYet(error, 'generate', pending);
  await removePending(pending);
  if (settled.kind === 'unknown') return unprovenOutcomeError(error, name, settled.ids);
  const found =
    settled.kind === 'deleted'
      ? `a check found the key it made (${settled.id}), whose private key never arrived, and deleted it again`
      : settled.kind === 'kept'
        ? `a check found the key it made (${settled.id}) with its private key in ${settled.file}`
        : 'a check found that no key was made';
  return new TridentError(error.exitCode, `the generate request for key "${name}" failed (${error.message}); ${found}`, {
    hint: settled.kind === 'kept' ? `keep it, or delete it with trident keys delete ${settled.id}` : 'nothing is left behind: run the command again',
    status: error.status,
    cause: error,
  });
}

/**
 * A create whose answer was lost: the private half was made here, so the one key of that name that accepts a
 * request signed with it is the one this create made. Returns that key, null when a check shows no such key,
 * or undefined when the check itself failed (the outcome stays unknown).
 */
export async function findLostCreate(ctx: Context, connection: KeysConnection, client: KeysClient, name: string, privateKey: KeyObject): Promise<ApiKey | null | undefined> {
  const tools = liveTools(ctx, connection, client);
  try {
    for (const candidate of (await client.list()).filter((key) => key.name === name)) {
      if (keyIdProblem(candidate.api_key) === undefined && (await tools.accepts(candidate.api_key, privateKey))) return candidate;
    }
    return null;
  } catch {
    return undefined;
  }
}

/**
 * A check right after the failure found no key: the service may still be making it (a gateway's 504, a timeout
 * that gave up first). The record stays, and with it the staged private half of a create, for later commands.
 */
export function notListedYet(error: TridentError, verb: 'create' | 'generate', pending: PendingEntry): TridentError {
  const { name } = pending.record;
  const late =
    verb === 'generate'
      ? 'deletes the key if the service makes it late (nobody holds its private half)'
      : `keeps the key with its private half if the service makes it late, else removes the staged file ${pending.record.staged_file}`;
  return new TridentError(error.exitCode, `the ${verb} request for key "${name}" failed (${error.message}); a check found no key of that name yet`, {
    hint: `the request stays recorded: keys commands against this service ${checkedUntil(pending.record)} check again and ${late}; then run the command again`,
    status: error.status,
    cause: error,
  });
}
