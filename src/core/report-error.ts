// How a failed command ends: one line on stderr (and a hint), the stack only under --debug, and the exit code.
import { ExitCode, TridentError, errorLines } from './errors.js';

export function reportError(error: unknown, stderr: NodeJS.WritableStream, debug: boolean): number {
  if (error instanceof TridentError) {
    stderr.write(errorLines(error.message, error.hint));
    if (debug && error.stack) stderr.write(`${error.stack}\n`);
    return error.exitCode;
  }
  const err = error instanceof Error ? error : new Error(String(error));
  stderr.write(errorLines(`unexpected error: ${err.message}`, 'this is a bug in trident: please report it with the command you ran and the output of --debug'));
  if (debug && err.stack) stderr.write(`${err.stack}\n`);
  return ExitCode.unexpected;
}
