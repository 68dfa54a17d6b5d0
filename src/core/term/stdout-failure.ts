// When stdout goes away in the middle of a command: the reader closed the pipe (`| head -1`) or the disk is
// full. A command that only prints stops there (a closed pipe is exit 0, anything else exit 8). A command
// whose work must not stop halfway, a batch of writes or a key whose private half goes to stdout, says so
// with finishWorkIfStdoutFails(): its output is then dropped, the work goes on, and the command decides.
// One StdoutWatch belongs to one invocation (its Context).
import { ExitCode, TridentError } from '../errors.js';

export class StdoutWatch {
  private finishWork = false;
  private first: NodeJS.ErrnoException | undefined;

  finishWorkIfStdoutFails(): void {
    this.finishWork = true;
  }

  /** The first error stdout had, if any. */
  failure(): NodeJS.ErrnoException | undefined {
    return this.first;
  }

  /** Exit code to leave with at once, or undefined when the command goes on (its output is dropped). */
  onError(error: NodeJS.ErrnoException): number | undefined {
    this.first ??= error;
    if (this.finishWork) return undefined;
    return error.code === 'EPIPE' ? ExitCode.ok : ExitCode.unavailable;
  }
}

export function stdoutWriteError(error: NodeJS.ErrnoException): TridentError {
  return new TridentError(ExitCode.unavailable, `cannot write the output: ${error.code ?? error.message}`, {
    hint: error.code === 'ENOSPC' ? 'the disk is full' : 'check where stdout goes',
  });
}
