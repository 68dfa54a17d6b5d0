// A generate whose answer was lost (the connection dropped after the request was sent) or unusable (a 2xx
// that cannot be read, or one without the private key) may have minted a key whose private half nobody
// received. The keys of the requested name are listed before the request, so a key of that name that is new
// afterwards is the lost one: it is deleted again (DESIGN §4: no key may exist that nobody holds).
import { TridentError } from '../core/errors.js';
import type { KeysClient } from './client.js';
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
