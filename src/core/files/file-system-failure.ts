// An error of the file system (a full disk, a read-only mount, a directory that is not the user's) is trouble
// in the environment, not a bug in trident: exit 2 naming the file and what to do about it.
import { ExitCode, TridentError } from '../errors.js';

/** The codes the user can do something about, in words, with what to do. */
const ENVIRONMENT: Record<string, { reason: string; hint: string }> = {
  ENOSPC: { reason: 'no space left on device', hint: 'free some space on that file system, then run the command again' },
  EDQUOT: { reason: 'disk quota exceeded', hint: 'free some space within your disk quota, then run the command again' },
  EROFS: {
    reason: 'read-only file system',
    hint: 'that file system is mounted read-only: remount it read-write, or set TRIDENT_CONFIG_DIR to a directory on a writable one',
  },
  EACCES: { reason: 'permission denied', hint: 'check the permissions of that path and of the directories above it' },
  EPERM: { reason: 'operation not permitted', hint: 'check the permissions of that path and of the directories above it' },
};

const OTHER_HINT = 'check the disk (space, read-only) and the permissions of that path';

/** System calls that only look: an error in one of them is a failure to read; any other, to write. */
const READING = new Set(['read', 'scandir', 'opendir', 'stat', 'lstat', 'fstat', 'readlink', 'access', 'realpath']);

/** An open refused for permission may have been for reading or for writing: it is said as it was. */
function verbOf(syscall: string | undefined, code: string): string {
  if (syscall && READING.has(syscall)) return 'read';
  return syscall === 'open' && (code === 'EACCES' || code === 'EPERM') ? 'open' : 'write';
}

/**
 * The error as exit 2: `cannot write <path>: no space left on device` and a hint. `path` names the file the
 * caller was writing (the error's own may be a temp file, or missing, as for a write to an open file).
 * Undefined for anything but a file-system error, and for an unknown code at no known path: that stays a bug.
 */
export function fileSystemFailure(error: unknown, path?: string): TridentError | undefined {
  if (!(error instanceof Error) || error instanceof TridentError) return undefined;
  const { code, syscall, path: own } = error as NodeJS.ErrnoException;
  if (!code || !/^E[A-Z]+$/.test(code)) return undefined;
  const where = path ?? (typeof own === 'string' ? own : undefined);
  const known = ENVIRONMENT[code];
  if (!known && where === undefined) return undefined;
  const failed = new TridentError(ExitCode.usage, `cannot ${verbOf(syscall, code)} ${where ?? 'a file'}: ${known?.reason ?? code}`, {
    hint: known?.hint ?? OTHER_HINT,
    cause: error,
  });
  failed.stack = error.stack;
  return failed;
}

/**
 * The same error naming `path`, for a writer whose failing call named something else (its temp file) or
 * nothing (a write to an open file). Anything that is not an errno error is returned as it is.
 */
export function failedAt(error: unknown, path: string, as?: string): unknown {
  const { code, errno } = (error ?? {}) as NodeJS.ErrnoException;
  const syscall = as ?? (error as NodeJS.ErrnoException | undefined)?.syscall;
  if (!(error instanceof Error) || error instanceof TridentError || !code) return error;
  return Object.assign(new Error(`${code}: ${syscall ?? 'write'} '${path}'`, { cause: error }), { code, errno, syscall, path });
}
