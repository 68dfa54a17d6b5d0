// A create or generate whose answer never came (the connection dropped after the request was sent) is not
// repeated: a second key could be minted. The person is told the outcome is unknown and how to find out.
import { ExitCode, TridentError, UNKNOWN_OUTCOME, outcomeUnknown } from '../../core/errors.js';

export { UNKNOWN_OUTCOME };
export const isUnknownOutcome = outcomeUnknown;

/**
 * The request's outcome could not even be checked. `stagedAt`: for a pair made here, where its private half
 * waits. Its pending record stays: the next keys command against the service settles it.
 */
export function unknownOutcomeError(error: TridentError, verb: 'create' | 'generate', name: string, stagedAt?: string): TridentError {
  const next =
    stagedAt === undefined
      ? `the next keys command against this service checks again and deletes a key of that name that nobody holds`
      : `the private key is kept at ${stagedAt}: the next keys command against this service keeps it as the key's private half if the key was made, otherwise removes it`;
  const answer = isUnknownOutcome(error) ? 'its answer never came' : 'its answer was not usable';
  return new TridentError(
    ExitCode.unavailable,
    `outcome unknown: the ${verb} request for key "${name}" was sent but ${answer}, and it was not repeated (${error.message})`,
    {
      code: UNKNOWN_OUTCOME,
      hint: `check with: trident keys list (look for a key named "${name}"); ${next}`,
      cause: error,
    },
  );
}

/** The key exists and where its private half is: what an interrupt after it was made must still say. */
function keyMadeNote(apiKey: string, privateKeyFile: string | undefined): string {
  return `key ${apiKey} was made: its private key ${privateKeyFile === undefined ? 'went to stdout' : `is in ${privateKeyFile}`}`;
}

const keepOrDelete = (apiKey: string) => `keep it, or delete it with trident keys delete ${apiKey}`;

/** An interrupt held back while a key was made (core/term/interrupts.ts): the key exists, and where its private half is. */
export function interruptedAfterKey(apiKey: string, privateKeyFile: string | undefined): TridentError {
  return new TridentError(ExitCode.interrupted, `interrupted after ${keyMadeNote(apiKey, privateKeyFile)}`, { hint: keepOrDelete(apiKey) });
}

/** The hint of an interrupt that stops the command once the key is made and before it is reported. */
export const interruptedAfterKeyHint = (apiKey: string, privateKeyFile: string | undefined) =>
  `${keyMadeNote(apiKey, privateKeyFile)}; ${keepOrDelete(apiKey)}`;
