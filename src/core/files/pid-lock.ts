// A lock held for as long as a command runs (minutes, with hooks): a `<file>.lock` file naming its holder
// (pid and start time). It never appears without its holder's name (written aside, then hard-linked into
// place, which fails if a lock is there), is refused while its holder lives, and is taken over at once from a
// holder that died (kill -9), so nothing waits for a lock to go stale.
import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { processAlive, processStartTime } from '../process-identity.js';
import { failedAt } from './file-system-failure.js';
import { assertOwnEntry } from './file-trust.js';

export interface Holder {
  pid: number;
  start?: string;
}

export type PidLock = { held: true; release(): void } | { held: false; holder: Holder };

function readHolder(path: string): { text: string; holder: Holder } | undefined {
  try {
    const text = readFileSync(path, 'utf8');
    const [pid, start] = text.trim().split(' ');
    // A pid that is no process's (0 would mean this process group) names no holder: the lock is free to take.
    const holder = Number.isSafeInteger(Number(pid)) && Number(pid) > 0 ? Number(pid) : -1;
    return { text, holder: { pid: holder, ...(start ? { start } : {}) } };
  } catch {
    return undefined;
  }
}

const removeQuietly = (path: string) => {
  try {
    unlinkSync(path);
  } catch {
    // gone already
  }
};

/** Takes the lock of `file`, or says who holds it. */
export function takePidLock(file: string): PidLock {
  const lock = `${file}.lock`;
  const mine = `${process.pid} ${processStartTime(process.pid) ?? ''}`.trim();
  const aside = `${lock}.${randomBytes(6).toString('hex')}`;
  try {
    writeFileSync(aside, `${mine}\n`, { mode: 0o600 });
  } catch (error) {
    removeQuietly(aside);
    // Taking a lock is writing beside the file it guards.
    throw failedAt(error, lock, 'write');
  }
  try {
    // Bounded: each round either takes the lock, finds a live holder, or clears one dead holder's lock.
    for (let round = 0; round < 5; round += 1) {
      try {
        linkSync(aside, lock);
        return { held: true, release: () => readHolder(lock)?.text.trim() === mine && removeQuietly(lock) };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      // A lock someone else could have planted (another user's, writable by others, a link) is refused.
      assertOwnEntry(lock, 'lock file', 'file');
      const seen = readHolder(lock);
      if (seen === undefined) continue;
      if (seen.holder.pid > 0 && processAlive(seen.holder.pid, seen.holder.start)) return { held: false, holder: seen.holder };
      const stale = `${lock}.stale-${randomBytes(6).toString('hex')}`;
      try {
        renameSync(lock, stale);
      } catch {
        continue;
      }
      // Another process took the dead holder's place in between: its lock goes back (never over a newer one).
      if (readHolder(stale)?.text !== seen.text) {
        try {
          linkSync(stale, lock);
        } catch {
          // a third process holds it now
        }
      }
      removeQuietly(stale);
    }
    const last = readHolder(lock);
    return { held: false, holder: last?.holder ?? { pid: 0 } };
  } finally {
    removeQuietly(aside);
  }
}

/** A live holder kept the lock for longer than the caller would wait. */
export class LockHeld extends Error {
  constructor(
    readonly lock: string,
    readonly holder: Holder,
  ) {
    super(`${lock} is held by process ${holder.pid}`);
  }
}

/**
 * Takes the lock of `file` as takePidLock does, waiting up to `waitMs` for a live holder to let it go (for locks
 * held only while a few files are read and written). `busy` says whether something other than a pid lock holds
 * the place, such as the lock an older release left. Throws LockHeld when the wait is over.
 */
export async function waitForPidLock(file: string, waitMs: number, busy: () => Holder | undefined = () => undefined): Promise<() => void> {
  const deadline = Date.now() + waitMs;
  for (let attempt = 0; ; attempt += 1) {
    const other = busy();
    const lock = other ? ({ held: false, holder: other } as const) : takePidLock(file);
    if (lock.held) return lock.release;
    if (Date.now() >= deadline) throw new LockHeld(`${file}.lock`, lock.holder);
    await new Promise((resolve) => setTimeout(resolve, Math.min(250, 10 * 2 ** attempt) * (1 + Math.random())));
  }
}
