// A key the service made whose private half could not be kept (not stored, not usable, not delivered) is
// deleted again, so that no key exists that nobody holds. Used by `keys generate` and by the rotation.
import { ExitCode, TridentError } from '../../core/errors.js';

/** What went wrong between the service's answer and the kept private half. */
export interface MintFailure {
  exitCode: ExitCode;
  message: string;
  hint?: string;
  cause: unknown;
}

export interface AfterDelete {
  /** Runs once the key is gone: its pending record or journal has nothing left to settle. */
  forget(): Promise<unknown>;
  /** Added after "the key was deleted on the service again". */
  note?: string;
  /** The hint when the delete failed too and the key is still there. */
  stillThereHint?: string;
}

/** The error to throw: the failure, and whether the key is gone or still on the service. */
export async function deleteUnheldKey(
  client: { delete(apiKey: string): Promise<unknown> },
  apiKey: string,
  failure: MintFailure,
  after: AfterDelete,
): Promise<TridentError> {
  try {
    await client.delete(apiKey);
  } catch (deleteError) {
    return new TridentError(
      failure.exitCode,
      `${failure.message}, and deleting that key on the service failed too: ${(deleteError as Error).message}`,
      {
        hint: after.stillThereHint,
        cause: failure.cause,
      },
    );
  }
  await after.forget();
  return new TridentError(failure.exitCode, `${failure.message}; the key was deleted on the service again${after.note ?? ''}`, {
    hint: failure.hint,
    cause: failure.cause,
  });
}
