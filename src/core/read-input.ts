// Text from a file named on the command line, or from stdin for "-".
// fs.promises loads node:fs/promises on first use: commands that only read settings and keys skip it.
import { promises as fs } from 'node:fs';
import type { Context } from '../context.js';
import { usageError } from './errors.js';

export async function readStream(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** The file's text, or stdin's for "-"; a file that cannot be read is a usage error (exit 2) naming `what`. */
export async function readFileOrStdin(ctx: Context, path: string, what = path): Promise<string> {
  if (path === '-') return readStream(ctx.io.stdin);
  try {
    return await fs.readFile(path, 'utf8');
  } catch (error) {
    throw usageError(`cannot read ${what}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}
