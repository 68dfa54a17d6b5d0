// The body of `trident api --input <file|->`, read up to a cap as every input file is (core/term/read-input.ts):
// /dev/zero or a runaway pipe ends at once with exit 2 instead of filling memory.
import type { Context } from '../context.js';
import { readFileOrStdin } from '../core/term/read-input.js';

export const MAX_INPUT_BYTES = 8 * 1024 * 1024;

export function readBody(ctx: Context, path: string, maxBytes = MAX_INPUT_BYTES): Promise<string> {
  return readFileOrStdin(ctx.io.stdin, path, `--input ${path}`, { maxBytes, hint: 'a request body is not that big: check the file' });
}
