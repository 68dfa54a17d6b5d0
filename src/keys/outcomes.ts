// A create or generate whose answer never came (the connection dropped after the request was sent) is not
// repeated: a second key could be minted. The person is told the outcome is unknown and how to find out.
import { ExitCode, TridentError } from '../core/errors.js';

export const UNKNOWN_OUTCOME = 'UNKNOWN_OUTCOME';

export function isUnknownOutcome(error: unknown): error is TridentError {
  return error instanceof TridentError && error.code === UNKNOWN_OUTCOME;
}

/** `keptAt`: for create, where the local private key stays (it may belong to a key that now exists). */
export function unknownOutcomeError(error: TridentError, verb: 'create' | 'generate', name: string, keptAt?: string): TridentError {
  const ifListed =
    keptAt === undefined
      ? `if it is listed, nobody holds its private key: delete it with trident keys delete <api_key>`
      : `the private key is kept at ${keptAt}: if the key is listed, that file is its private half, otherwise remove the file`;
  return new TridentError(ExitCode.unavailable, `outcome unknown: the ${verb} request for key "${name}" was sent but its answer never came, and it was not repeated (${error.message})`, {
    code: UNKNOWN_OUTCOME,
    hint: `check with: trident keys list (look for a key named "${name}"); ${ifListed}`,
    cause: error,
  });
}

/** An interrupt held back while a key was made (core/interrupts.ts): the key exists, and where its private half is. */
export function interruptedAfterKey(apiKey: string, privateKeyFile: string | undefined): TridentError {
  return new TridentError(ExitCode.interrupted, `interrupted after key ${apiKey} was made: its private key ${privateKeyFile === undefined ? 'went to stdout' : `is in ${privateKeyFile}`}`, {
    hint: `keep it, or delete it with trident keys delete ${apiKey}`,
  });
}
