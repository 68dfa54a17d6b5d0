// How a failed command ends: one line on stderr (and a hint), and the exit code. Under --debug, a known failure adds
// what caused it (the network or file-system error beneath), and a bug its stack.
import { ExitCode, TridentError, errorLines } from '../errors.js';
import { fileSystemFailure } from '../files/file-system-failure.js';
import { redactText } from '../http/redact.js';

export function reportError(error: unknown, stderr: NodeJS.WritableStream, debug: boolean): number {
  // A file-system error that no command turned into a message (a full disk, a read-only or vanished
  // directory) is trouble in the environment, not a bug.
  const known = error instanceof TridentError ? error : fileSystemFailure(error);
  if (known) {
    stderr.write(errorLines(known.message, known.hint));
    if (debug)
      for (let cause = known.cause; cause instanceof Error; cause = cause.cause) stderr.write(`debug: caused by ${causeLine(cause)}\n`);
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

/** An error beneath a known failure, on one line: its code and message, with any secret in it redacted. */
function causeLine(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code;
  return redactText(`${code ? `${code}: ` : ''}${error.message}`.replace(/\s*\n\s*/g, ' '));
}
