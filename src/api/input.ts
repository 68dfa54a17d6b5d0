// The body of `trident api --input <file|->`, read up to a cap: /dev/zero or a runaway pipe ends at once
// with exit 2 instead of filling memory.
import { createReadStream } from 'node:fs';
import type { Context } from '../context.js';
import { TridentError, usageError } from '../core/errors.js';

export const MAX_INPUT_BYTES = 8 * 1024 * 1024;

export async function readBody(ctx: Context, path: string, max = MAX_INPUT_BYTES): Promise<string> {
  const stream = path === '-' ? ctx.io.stdin : createReadStream(path);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      size += bytes.length;
      if (size > max) throw usageError(`--input ${path} is larger than ${max / (1024 * 1024)} MiB: a request body is not that big`);
      chunks.push(bytes);
    }
  } catch (error) {
    if (error instanceof TridentError || (error as NodeJS.ErrnoException).code === undefined) throw error;
    throw usageError(`cannot read --input ${path}: ${(error as NodeJS.ErrnoException).code}`);
  } finally {
    if (path !== '-') (stream as ReturnType<typeof createReadStream>).destroy();
  }
  return Buffer.concat(chunks).toString('utf8');
}
