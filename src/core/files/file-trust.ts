// Settings, tokens and keys decide where a secret is sent and who trident is: a file or directory of them
// that another user can write is refused (exit 2), as ssh's StrictModes does, unless TRIDENT_INSECURE_CONFIG=1.
// Files trident keeps itself (in its config dir) must not be symbolic links, nor the directories they are in;
// files a user names (--private-key, --token-file) may be, and then the link's directory and the target pass
// the same checks.
import { AsyncLocalStorage } from 'node:async_hooks';
import { lstatSync, realpathSync, statSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';
import { usageError } from '../errors.js';

export const INSECURE_CONFIG_ENV = 'TRIDENT_INSECURE_CONFIG';
const STICKY = 0o1000;
const FILE_LINK_HINT = `replace the link with the file itself (trident replaces the file when it writes it), or set ${INSECURE_CONFIG_ENV}=1`;

// Whether the checks are off is the invocation's, not the process's: each command runs inside its own scope
// (command.ts), so two commands run in one test process never see each other's choice. Outside any scope the
// checks are on.
const insecureScope = new AsyncLocalStorage<boolean>();

/** Runs `work` with the checks its environment asks for: TRIDENT_INSECURE_CONFIG=1 turns them off. */
export function withFileTrust<T>(env: NodeJS.ProcessEnv, work: () => T): T {
  return insecureScope.run(env[INSECURE_CONFIG_ENV] === '1', work);
}

const insecureAllowed = () => insecureScope.getStore() === true;

export type Symlinks = 'refuse' | 'follow';

/**
 * Throws (exit 2) if the regular file at `path`, or the directory it is in, could have been written by
 * someone else. A missing path passes (the caller reports it); so do devices and pipes (`<(…)`), which
 * nobody can plant content in ahead of time.
 */
export function assertTrustedFile(path: string, what: string, symlinks: Symlinks): void {
  if (insecureAllowed()) return;
  const link = lstatSync(path, { throwIfNoEntry: false });
  if (!link) return;
  if (link.isSymbolicLink() && symlinks === 'refuse') {
    throw usageError(`${what} ${path} is a symbolic link: refused`, FILE_LINK_HINT);
  }
  const target = link.isSymbolicLink() ? statSync(path, { throwIfNoEntry: false }) : link;
  if (!target?.isFile()) return;
  assertTrustedDir(dirname(path), 'directory');
  if (link.isSymbolicLink()) {
    const real = realpathSync(path);
    assertTrustedDir(dirname(real), 'directory');
    assertTrustedEntry(real, `${what} (through ${path})`, target);
  } else {
    assertTrustedEntry(path, what, target);
  }
}

/** Throws (exit 2) if the directory could be changed by someone else (a sticky one like /tmp is fine). */
export function assertTrustedDir(dir: string, what: string): void {
  if (insecureAllowed()) return;
  const stat = statSync(dir, { throwIfNoEntry: false });
  if (!stat?.isDirectory()) return;
  assertTrustedEntry(dir, what, stat);
}

export type Kind = 'file' | 'directory';

/**
 * Checks a file or directory trident keeps in its config dir: no symbolic link, of the kind expected, the
 * user's (or root's), and writable by nobody else, sticky bit or not (trident makes them 0600 and 0700).
 * False if it is missing (or its path leads through a file).
 */
export function assertOwnEntry(path: string, what: string, kind: Kind): boolean {
  const stat = lstatOrMissing(path);
  if (!stat) return false;
  if (insecureAllowed()) return true;
  if (stat.isSymbolicLink()) {
    throw usageError(
      `${what} ${path} is a symbolic link: refused`,
      kind === 'file' ? FILE_LINK_HINT : `replace the link with the directory itself, or set ${INSECURE_CONFIG_ENV}=1`,
    );
  }
  if (kind === 'file' && !stat.isFile())
    throw usageError(`${what} ${path} is not a regular file: refused`, 'trident keeps only files of its own there: move it out of the way');
  if (kind === 'directory' && !stat.isDirectory())
    throw usageError(`${path} is not a directory: refused`, 'trident keeps a directory of its own there: move it out of the way');
  assertTrustedEntry(path, what, stat, false);
  return true;
}

function lstatOrMissing(path: string): Stats | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw error;
  }
}

function assertTrustedEntry(path: string, what: string, stat: Stats, stickyShared = true): void {
  const me = process.getuid?.();
  if (me !== undefined && stat.uid !== me && stat.uid !== 0) {
    throw usageError(
      `${what} ${path} belongs to another user (uid ${stat.uid}): refused`,
      `make it yours (chown) or use your own, or set ${INSECURE_CONFIG_ENV}=1`,
    );
  }
  const sharedDir = stickyShared && stat.isDirectory() && (stat.mode & STICKY) !== 0;
  if ((stat.mode & 0o022) !== 0 && !sharedDir) {
    throw usageError(
      `${what} ${path} can be written by other users (mode ${(stat.mode & 0o777).toString(8)}): refused`,
      `run: chmod go-w ${path} (or set ${INSECURE_CONFIG_ENV}=1 to use it anyway)`,
    );
  }
}
