// The settings lock: the pid lock `settings.json.lock`, held while the settings and the key ledger are read and
// changed together, so only for as long as a few files take. A live holder is waited for (up to WAIT_MS); a
// dead one's lock is taken over at once.
import { readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { processAlive } from '../process-identity.js';
import { LockHeld, waitForPidLock, type Holder } from './pid-lock.js';

/** How old an older release's lock without a holder's pid must be before it is taken as left behind. */
const STALE_MS = 10_000;
/** Longer than STALE_MS, so that an older release's lock left without a pid is cleared before giving up. */
const WAIT_MS = STALE_MS * 2;

export { LockHeld };

/** Runs `work` holding the lock of `file`; the lock goes however `work` ends. Throws LockHeld after the wait. */
export async function withLock<T>(file: string, work: () => T | Promise<T>): Promise<T> {
  const release = await waitForPidLock(file, WAIT_MS, () => olderReleaseHolder(`${file}.lock`));
  try {
    return await work();
  } finally {
    release();
  }
}

/**
 * The holder of a lock that an older release took: a directory with a `pid` file in it. One whose holder is
 * dead, or that has no pid and is older than STALE_MS, was left behind and is removed.
 */
function olderReleaseHolder(lockDir: string): Holder | undefined {
  let modified: number;
  try {
    const stats = statSync(lockDir);
    if (!stats.isDirectory()) return undefined;
    modified = stats.mtimeMs;
  } catch {
    return undefined;
  }
  let pid: number | undefined;
  try {
    pid = Number(readFileSync(join(lockDir, 'pid'), 'utf8').trim());
  } catch {
    pid = undefined;
  }
  const live = pid !== undefined && Number.isSafeInteger(pid) && pid > 0 ? processAlive(pid) : Date.now() - modified < STALE_MS;
  if (live) return { pid: pid ?? 0 };
  rmSync(lockDir, { recursive: true, force: true });
  return undefined;
}
