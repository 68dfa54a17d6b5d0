// How a failed command ends: one line on stderr (and a hint), the stack only under --debug, and the exit code.
import { ExitCode, TridentError, errorLines } from '../errors.js';
import { fileSystemFailure } from '../files/file-system-failure.js';

export function reportError(error: unknown, stderr: NodeJS.WritableStream, debug: boolean): number {
  // A file-system error that no command turned into a message (a full disk, a read-only or vanished
  // directory) is trouble in the environment, not a bug.
  const known = error instanceof TridentError ? error : fileSystemFailure(error);
  if (known) {
    stderr.write(errorLines(known.message, known.hint));
    if (debug && known.stack) stderr.write(`${known.stack}\n`);
    return known.exitCode;
  }
  const err = error instanceof Error ? error : new Error(String(error));
  stderr.write(
    errorLines(
      `unexpected error: ${err.message}`,
      'this is a bug in trident: please report it with the command you ran and the output of --debug',
    ),
  );
  if (debug && err.stack) stderr.write(`${err.stack}\n`);
  return ExitCode.unexpected;
}
