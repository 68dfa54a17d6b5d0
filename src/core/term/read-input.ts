// Text from a file named on the command line, or from stdin for "-", never more than a cap (files/capped-read.ts).
import { INPUT_CAPS, readFileCapped, readStreamCapped } from '../files/capped-read.js';
import { TridentError, usageError } from '../errors.js';

export interface ReadInputOptions {
  /** Default: the cap of keys, 1 MiB. */
  maxBytes?: number;
  /** Said when the cap is hit (e.g. how to raise it). */
  hint?: string;
}

/** The file's text, or stdin's for "-"; a file that cannot be read is a usage error (exit 2) naming `what`. */
export async function readFileOrStdin(
  stdin: NodeJS.ReadableStream,
  path: string,
  what = path,
  options: ReadInputOptions = {},
): Promise<string> {
  const maxBytes = options.maxBytes ?? INPUT_CAPS.key;
  if (path === '-') return readStreamCapped(stdin, maxBytes, `${what === '-' ? 'stdin' : what}`, options.hint);
  try {
    return await readFileCapped(path, maxBytes, what, options.hint);
  } catch (error) {
    if (error instanceof TridentError) throw error;
    throw usageError(`cannot read ${what}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}
