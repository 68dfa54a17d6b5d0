// Reading a file a user or the settings named, never more than a cap: `/dev/zero`, a FIFO that never ends or
// a huge sparse file ends at once with exit 2 instead of filling memory. Every input file goes through here.
// fs.promises loads node:fs/promises on first use: commands that only read settings and keys skip it.
import { closeSync, constants, fstatSync, openSync, promises as fs, readSync } from 'node:fs';
import { usageError } from '../errors.js';

const KiB = 1024;
const MiB = 1024 * KiB;

export const INPUT_CAPS = {
  /** Private keys, public keys, CA certificates. */
  key: MiB,
  token: 64 * KiB,
  settings: MiB,
} as const;

/** A process substitution (`<(vault read …)`) may take a while to say anything; a sync read waits this long. */
const PIPE_WAIT_MS = 30_000;
const PIPE_POLL_MS = 10;

export function sizeText(bytes: number): string {
  return bytes >= MiB && bytes % MiB === 0 ? `${bytes / MiB} MiB` : `${bytes / KiB} KiB`;
}

export function tooLargeError(what: string, maxBytes: number, hint?: string) {
  return usageError(`${what} is larger than ${sizeText(maxBytes)}: not read`, hint);
}

/**
 * An env variable holding a whole number of MiB from 1 to 4096 (TRIDENT_MAX_RESPONSE_MB, TRIDENT_MAX_CSV_MB),
 * in bytes; undefined when unset or empty.
 */
export function mebibytesFromEnv(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const value = env[name];
  if (value === undefined || value === '') return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 4096)
    throw usageError(`invalid ${name} "${value}": expected a whole number of MiB from 1 to 4096`);
  return Number(value) * MiB;
}

/**
 * The file's text, at most `maxBytes`, read synchronously (settings, keys and tokens are read on paths that
 * are synchronous). Opened non-blocking, so that a FIFO nobody writes to cannot hang the process; a pipe
 * that is slow to speak is polled for at most 30 s. Errors of the file system are thrown as they are.
 */
export function readFileCappedSync(path: string, maxBytes: number, what: string): string {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stat = fstatSync(fd);
    if (stat.isFile() && stat.size > maxBytes) throw tooLargeError(what, maxBytes);
    const buffer = Buffer.allocUnsafe(Math.min(maxBytes, stat.isFile() ? stat.size : maxBytes) + 1);
    const deadline = Date.now() + PIPE_WAIT_MS;
    let length = 0;
    while (length < buffer.length) {
      const read = readSomeSync(fd, buffer, length);
      if (read === 0) break;
      if (read === undefined) {
        if (Date.now() > deadline) throw usageError(`${what} said nothing more for ${PIPE_WAIT_MS / 1000} s: not read`);
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, PIPE_POLL_MS);
        continue;
      }
      length += read;
    }
    if (length > maxBytes) throw tooLargeError(what, maxBytes);
    return buffer.toString('utf8', 0, length);
  } finally {
    closeSync(fd);
  }
}

/** Bytes read, 0 at the end, undefined when a non-blocking pipe has nothing yet. */
function readSomeSync(fd: number, buffer: Buffer, offset: number): number | undefined {
  try {
    return readSync(fd, buffer, offset, buffer.length - offset, null);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EAGAIN') return undefined;
    throw error;
  }
}

/** A stream's text, at most `maxBytes`: the stream is dropped as soon as it says more. */
export async function readStreamCapped(stream: NodeJS.ReadableStream, maxBytes: number, what: string, hint?: string): Promise<string> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    length += bytes.length;
    if (length > maxBytes) {
      (stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
      throw tooLargeError(what, maxBytes, hint);
    }
    chunks.push(bytes);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A file's text, at most `maxBytes`, read asynchronously (a FIFO waits for its writer without blocking). */
export async function readFileCapped(path: string, maxBytes: number, what: string, hint?: string): Promise<string> {
  const handle = await fs.open(path, 'r');
  try {
    const stat = await handle.stat();
    if (stat.isFile() && stat.size > maxBytes) throw tooLargeError(what, maxBytes, hint);
    return await readStreamCapped(handle.createReadStream({ autoClose: false, end: maxBytes }), maxBytes, what, hint);
  } finally {
    await handle.close();
  }
}
