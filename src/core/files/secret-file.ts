// Secrets on disk: written to a temp file created 0600 (never world-readable, not even for an instant),
// fsynced, then moved into place atomically. Never over an existing file unless forced.
import { randomBytes } from 'node:crypto';
// fs.promises loads node:fs/promises on first use: commands that only read settings and keys skip it.
import { constants, accessSync, existsSync, promises as fs, statSync } from 'node:fs';
import { dirname, join, basename } from 'node:path';
import { ensurePrivateDir } from './private-dir.js';
import { TridentError, usageError } from '../errors.js';
import { assertTrustedDir } from './file-trust.js';
import { failedAt } from './file-system-failure.js';

export interface SecretWriteOptions {
  /** Replace an existing file. */
  force?: boolean;
}

/**
 * Checks, before a service is called, that `path` can be written: its directory exists or can be created,
 * is writable, and the file does not exist yet (unless forced). Throws a usage error (exit 2) otherwise.
 */
export function preflightSecretPath(path: string, options: SecretWriteOptions = {}): void {
  const dir = dirname(path);
  if (existsSync(path)) {
    if (!options.force) throw usageError(`${path} already exists`, 'choose another --out, or pass --force to replace it');
    if (statSync(path).isDirectory()) throw usageError(`${path} is a directory`);
  }
  preflightSecretDir(dir);
}

/** Checks that new files can be created in `dir` (creating it 0700 if missing); exit 2 otherwise. */
export function preflightSecretDir(dir: string): void {
  try {
    if (existsSync(dir)) {
      if (!statSync(dir).isDirectory()) throw new Error('not a directory');
      assertTrustedDir(dir, 'directory');
      accessSync(dir, constants.W_OK | constants.X_OK);
    } else {
      ensurePrivateDir(dir);
    }
  } catch (error) {
    if (error instanceof TridentError) throw error;
    throw usageError(`cannot write to ${dir}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/**
 * Writes `content` to `path` with mode 0600, atomically. If anything fails (a full disk, a read-only mount)
 * the temp file goes too, so that nothing half-written is left for a later command to find, and the error
 * names `path`.
 */
export async function writeSecretFile(path: string, content: string | Buffer, options: SecretWriteOptions = {}): Promise<void> {
  const dir = dirname(path);
  const tmp = join(dir, `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  let created = false;
  try {
    if (!existsSync(dir)) ensurePrivateDir(dir);
    const handle = await fs.open(tmp, 'wx', 0o600);
    created = true;
    try {
      await handle.writeFile(content);
      await handle.sync();
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw error;
    }
    await handle.close();
    await moveSecretFile(tmp, path, options);
  } catch (error) {
    // Only a temp file this call made: 'wx' failing means the name was someone else's.
    if (created) await fs.unlink(tmp).catch(() => undefined);
    throw failedAt(error, path);
  }
}

/**
 * Moves a complete secret file (same filesystem) to `path` atomically; never over an existing file unless
 * forced. On failure `from` is left in place.
 */
export async function moveSecretFile(from: string, path: string, options: SecretWriteOptions = {}): Promise<void> {
  try {
    if (options.force) {
      await fs.rename(from, path);
    } else {
      // link() fails with EEXIST if the target appeared meanwhile: no race can overwrite a key.
      await fs.link(from, path);
      await fs.unlink(from);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      throw usageError(`${path} already exists`, 'pass --force to replace it');
    }
    throw error;
  }
  await syncDir(dirname(path));
}

async function syncDir(dir: string): Promise<void> {
  const handle = await fs.open(dir, 'r').catch(() => undefined);
  if (!handle) return;
  await handle.sync().catch(() => undefined);
  await handle.close();
}

/** Removes a secret file if it is there; true if it was. */
export async function removeSecretFile(path: string): Promise<boolean> {
  try {
    await fs.unlink(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}
