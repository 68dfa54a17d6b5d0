// How a failed command ends: one line on stderr (and a hint), the stack only under --debug, and the exit code.
import { ExitCode, TridentError, errorLines } from '../errors.js';

export function reportError(error: unknown, stderr: NodeJS.WritableStream, debug: boolean): number {
  const known = error instanceof TridentError ? error : fileSystemTrouble(error);
  if (known) {
    stderr.write(errorLines(known.message, known.hint));
    if (debug && known.stack) stderr.write(`${known.stack}\n`);
    return known.exitCode;
  }
  const err = error instanceof Error ? error : new Error(String(error));
  stderr.write(errorLines(`unexpected error: ${err.message}`, 'this is a bug in trident: please report it with the command you ran and the output of --debug'));
  if (debug && err.stack) stderr.write(`${err.stack}\n`);
  return ExitCode.unexpected;
}

/**
 * A file-system error that no command turned into a message (a full disk, a read-only or vanished directory)
 * is trouble in the environment, not a bug: exit 2 naming the file and the error code.
 */
function fileSystemTrouble(error: unknown): TridentError | undefined {
  const { code, syscall, path } = (error ?? {}) as NodeJS.ErrnoException;
  if (!(error instanceof Error) || typeof path !== 'string' || !code || !/^E[A-Z]+$/.test(code)) return undefined;
  const failed = new TridentError(ExitCode.usage, `cannot ${syscall ?? 'use'} ${path}: ${code}`, {
    hint: 'check the disk (space, read-only) and the permissions of that path',
    cause: error,
  });
  failed.stack = error.stack;
  return failed;
}
