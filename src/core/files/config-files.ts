// What trident reads back from its config dir decides what it sends, runs and deletes: settings, key ages,
// stored tokens, private keys in keys/, pending records, rotation journals. A file someone else planted there
// could point a secret at their server, run their command as a rotation hook, or make trident delete the key
// it signs with; so each is read only once the config dir, every directory below it on the way and the file
// itself passed the checks of file-trust.ts (exit 2 naming the path otherwise). Each entry below the config
// dir is looked at without following links, so that the file's real path is the one asked for.
import { readdirSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { INPUT_CAPS, readFileCappedSync } from './capped-read.js';
import { assertOwnEntry, assertTrustedDir } from './file-trust.js';

/**
 * The text of `path`, a file trident keeps in `configDir` (`what` names it in messages: "settings file"), or
 * undefined when it, or a directory on its way, is missing. Throws exit 2 if it, or a directory from the
 * config dir down to it, could have been written by someone else or is a link; other errors of the read
 * (EACCES, EISDIR with TRIDENT_INSECURE_CONFIG=1) are thrown as they are, for the caller to word.
 */
export function readConfigFile(configDir: string, path: string, what: string, maxBytes: number = INPUT_CAPS.settings): string | undefined {
  if (!trustedWayTo(configDir, path)) return undefined;
  if (!assertOwnEntry(path, what, 'file')) return undefined;
  try {
    return readFileCappedSync(path, maxBytes, `${what} ${path}`);
  } catch (error) {
    if (missing(error)) return undefined;
    throw error;
  }
}

/**
 * The names in `<configDir>/<sub>` (sorted), once the directory passed the same checks; [] when it is
 * missing. Each file in it is still to be read with readConfigFile.
 */
export function listConfigDir(configDir: string, sub: string, what: string): string[] {
  const dir = join(configDir, sub);
  if (!assertConfigDir(configDir, sub, what)) return [];
  try {
    return readdirSync(dir).sort();
  } catch (error) {
    if (missing(error)) return [];
    throw error;
  }
}

/**
 * Checks `<configDir>/<sub>` and the way to it as readConfigFile would (exit 2 otherwise); false when it is
 * missing. Called before writing there too: a file trident could not read back is not written.
 */
export function assertConfigDir(configDir: string, sub: string, what: string): boolean {
  const dir = join(configDir, sub);
  return trustedWayTo(configDir, dir) && assertOwnEntry(dir, what, 'directory');
}

/** Whether `path` names a file in `<configDir>/<sub>`, by its name alone (links are readConfigFile's to refuse). */
export function isInConfigDir(configDir: string, sub: string, path: string): boolean {
  return below(join(configDir, sub), path) !== undefined;
}

/** Checks the config dir and the directories below it that lead to `path`; false if one is missing. */
function trustedWayTo(configDir: string, path: string): boolean {
  const parts = below(configDir, path);
  if (parts === undefined) throw new Error(`${path} is not in the config directory ${configDir}`);
  assertTrustedDir(configDir, 'config directory');
  let dir = configDir;
  for (const part of parts.slice(0, -1)) {
    dir = join(dir, part);
    if (!assertOwnEntry(dir, 'directory', 'directory')) return false;
  }
  return true;
}

/** The names from `dir` down to `path`, or undefined when `path` is not below `dir`. */
function below(dir: string, path: string): string[] | undefined {
  const rel = relative(dir, path);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  return rel.split(sep);
}

/** Gone meanwhile, or behind a file where a directory should be: not there either way. */
function missing(error: unknown): boolean {
  const { code } = error as NodeJS.ErrnoException;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
