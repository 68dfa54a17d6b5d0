// Loads the CLI bundle with V8's code cache of an earlier run of the same command. Node's own compile cache is
// written as a file is loaded, before its functions ran, so the functions a command calls would be compiled on
// every run; a cache made after the command ran holds them too. There is one per command, build and Node
// version, in a directory only the user can write (as with ssh's files, anything else is not trusted). A cache
// that is missing, unreadable, corrupt, for another build or writable by others is no cache, and failing to
// read or write one never fails the command.
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';

/** The last line of the bundle, written by the build: the bundle's sha256. */
const BUILD_LINE = /\n\/\/# build ([0-9a-f]{64})\n?$/;

export interface LoadedBundle {
  exports: Record<string, unknown>;
  /** Whether V8 was offered a cache, and took it. */
  cache: 'none' | 'used' | 'refused';
  /** Writes the cache after the command ran, when there was none or V8 refused it. */
  save(): void;
}

/** The cache's directory: `$XDG_CACHE_HOME/trident/code`, else `~/.cache/trident/code`. */
export function codeCacheDir(env: NodeJS.ProcessEnv): string {
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'trident', 'code');
}

/** Which command a run is, as far as the cache cares: its first two words when they are names (else one cache for all). */
export function commandKey(args: readonly string[]): string {
  const [group, command] = args.map((word) => (/^[a-z][a-z-]*$/.test(word) ? word : undefined));
  return group === undefined ? 'trident' : command === undefined ? group : `${group}-${command}`;
}

export function loadBundle(file: string, args: readonly string[], env: NodeJS.ProcessEnv): LoadedBundle {
  const source = readFileSync(file, 'latin1'); // the build keeps it ASCII
  const cache = env.NODE_DISABLE_COMPILE_CACHE ? undefined : cacheFile(source, args, env);
  const cachedData = cache === undefined ? undefined : attempt(() => readPrivate(cache));
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, cachedData });
  const bundle = { exports: {} as Record<string, unknown> };
  (script.runInThisContext() as (...parameters: unknown[]) => void)(bundle.exports, createRequire(file), bundle, file, dirname(file));
  return {
    exports: bundle.exports,
    cache: cachedData === undefined ? 'none' : script.cachedDataRejected ? 'refused' : 'used',
    save() {
      if (cache !== undefined && (cachedData === undefined || script.cachedDataRejected))
        attempt(() => writePrivate(cache, script.createCachedData()));
    },
  };
}

function cacheFile(source: string, args: readonly string[], env: NodeJS.ProcessEnv): string | undefined {
  const build = BUILD_LINE.exec(source.slice(-100))?.[1];
  const dir = codeCacheDir(env);
  if (build === undefined || !attempt(() => ownDirectory(dir))) return undefined;
  return join(dir, cacheFileName(build, process.version, commandKey(args)));
}

/** A cache is for one build, one Node (V8 refuses another's, but need not be asked) and one command. */
export function cacheFileName(build: string, nodeVersion: string, command: string): string {
  return `${build.slice(0, 32)}-${nodeVersion}-${process.arch}-${command}.bin`;
}

/**
 * Makes the directory and its two parents if need be; true if it is a directory of this user's that nobody else
 * can enter. Made one level at a time: a recursive mkdir under /proc never returns.
 */
function ownDirectory(dir: string): boolean {
  for (const level of [dirname(dirname(dir)), dirname(dir), dir]) {
    try {
      mkdirSync(level, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  const stat = lstatSync(dir);
  return stat.isDirectory() && stat.uid === process.getuid?.() && (stat.mode & 0o077) === 0;
}

function readPrivate(file: string): Buffer | undefined {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const stat = fstatSync(fd);
    return stat.uid === process.getuid?.() && (stat.mode & 0o022) === 0 ? readFileSync(fd) : undefined;
  } finally {
    closeSync(fd);
  }
}

function writePrivate(file: string, data: Buffer): void {
  const temporary = `${file}.${process.pid}`;
  try {
    writeFileSync(temporary, data, { mode: 0o600, flag: 'wx' });
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

function attempt<T>(work: () => T): T | undefined {
  try {
    return work();
  } catch {
    return undefined;
  }
}
