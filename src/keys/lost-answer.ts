// A generate or create whose answer was lost (the connection dropped after the request was sent) or unusable
// (a 2xx that cannot be read) may have made a key. For generate, the private half never arrived: the keys of
// the requested name are listed before the request, so a key of that name that is new afterwards is the lost
// one, and it is deleted again (DESIGN §4: no key may exist that nobody holds). For create, the private half
// is here: the key that accepts a request signed with it is ours, and it is kept.
import type { KeyObject } from 'node:crypto';
import type { Context } from '../context.js';
import { ExitCode, TridentError } from '../core/errors.js';
import type { ApiKey, KeysClient } from './client.js';
import { openKeysClient, type KeysConnection } from './connection.js';
import { isUnknownOutcome, unknownOutcomeError } from './outcomes.js';

/** Ids of the keys named `name` now. */
export async function idsNamed(client: KeysClient, name: string): Promise<Set<string>> {
  return new Set((await client.list()).filter((key) => key.name === name).map((key) => key.api_key));
}

/** True when the service may have minted a key whose private half did not reach us. */
export function answerLost(error: unknown): error is TridentError {
  if (isUnknownOutcome(error)) return true;
  return error instanceof TridentError && error.status !== undefined && error.status >= 200 && error.status < 300;
}

/** Finds and deletes the key a failed generate made; the error to report says what was found and done. */
export async function settleLostGenerate(client: KeysClient, name: string, before: Set<string>, error: TridentError): Promise<TridentError> {
  const failed = `the generate request for key "${name}" failed (${error.message})`;
  let lost: string[];
  try {
    lost = [...(await idsNamed(client, name))].filter((id) => !before.has(id));
    for (const id of lost) await client.delete(id);
  } catch {
    // The check failed too: what is known is what the first error says.
    return isUnknownOutcome(error) ? unknownOutcomeError(error, 'generate', name) : error;
  }
  const found =
    lost.length === 0
      ? 'a check found that no key was made'
      : `a check found the key it made (${lost.join(', ')}), whose private key never arrived, and deleted it again`;
  return new TridentError(error.exitCode, `${failed}; ${found}`, { hint: 'nothing is left behind: run the command again', status: error.status, cause: error });
}

/**
 * A create whose answer was lost: the private half was made here, so the one key of that name that accepts a
 * request signed with it is the one this create made. Returns that key, null when a check shows no such key,
 * or undefined when the check itself failed (the outcome stays unknown).
 */
export async function findLostCreate(ctx: Context, connection: KeysConnection, client: KeysClient, name: string, privateKey: KeyObject): Promise<ApiKey | null | undefined> {
  try {
    const candidates = (await client.list()).filter((key) => key.name === name);
    for (const candidate of candidates) {
      const signer = { keyId: candidate.api_key, privateKey, source: 'the private key made for it' };
      const probe = await openKeysClient(ctx, { baseUrl: connection.baseUrl, signer });
      const accepted = await probe.list().then(
        () => true,
        (error: unknown) => {
          if (error instanceof TridentError && error.exitCode === ExitCode.auth) return false;
          throw error;
        },
      );
      if (accepted) return candidate;
    }
    return null;
  } catch {
    return undefined;
  }
}
