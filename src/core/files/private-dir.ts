// Directories that hold settings, tokens and keys: only their owner may enter them.
import { chmodSync, mkdirSync, statSync } from 'node:fs';

/** Creates the directory 0700 (and tightens it if it was created looser by someone else's umask). */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if ((statSync(dir).mode & 0o077) !== 0) chmodSync(dir, 0o700);
}
