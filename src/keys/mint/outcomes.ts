// A create or generate whose answer never came (the connection dropped after the request was sent) is not
// repeated: a second key could be minted. The person is told the outcome is unknown and how to find out.
import { ExitCode, TridentError, UNKNOWN_OUTCOME, outcomeUnknown } from '../../core/errors.js';

export { UNKNOWN_OUTCOME };
export const isUnknownOutcome = outcomeUnknown;

/**
 * `keptAt`: for create, where the local private key stays (it may belong to a key that now exists). Its pending
 * record stays too: the next keys command against the service settles it.
 */
export function unknownOutcomeError(error: TridentError, verb: 'create' | 'generate', name: string, keptAt?: string): TridentError {
  const ifListed =
    keptAt === undefined
      ? `if it is listed, nobody holds its private key: delete it with trident keys delete <api_key>`
      : `the private key is kept at ${keptAt}: the next keys command against this service keeps it as the key's private half if the key was made, otherwise removes it`;
  const answer = isUnknownOutcome(error) ? 'its answer never came' : 'its answer was not usable';
  return new TridentError(ExitCode.unavailable, `outcome unknown: the ${verb} request for key "${name}" was sent but ${answer}, and it was not repeated (${error.message})`, {
    code: UNKNOWN_OUTCOME,
    hint: `check with: trident keys list (look for a key named "${name}"); ${ifListed}`,
    cause: error,
  });
}

/**
 * A lost generate whose settlement found new keys of that name but could not prove one its own (another
 * client made a key of the same name meanwhile): none is deleted, every candidate is named.
 */
export function unprovenOutcomeError(error: TridentError, name: string, ids: string[]): TridentError {
  return new TridentError(
    ExitCode.unavailable,
    `outcome unknown: the generate request for key "${name}" failed (${error.message}), and new keys of that name appeared (${ids.join(', ')}): trident cannot prove which is its own, so none was deleted`,
    { code: UNKNOWN_OUTCOME, hint: `one of them may be a key nobody holds: check with trident keys list, and delete it with trident keys delete <api_key>`, cause: error },
  );
}

/** An interrupt held back while a key was made (core/term/interrupts.ts): the key exists, and where its private half is. */
export function interruptedAfterKey(apiKey: string, privateKeyFile: string | undefined): TridentError {
  return new TridentError(ExitCode.interrupted, `interrupted after key ${apiKey} was made: its private key ${privateKeyFile === undefined ? 'went to stdout' : `is in ${privateKeyFile}`}`, {
    hint: `keep it, or delete it with trident keys delete ${apiKey}`,
  });
}
