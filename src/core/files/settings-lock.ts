// The settings lock: a `settings.json.lock` directory (proper-lockfile) with the holder's pid in it. A lock
// whose holder is dead (kill -9) is taken over at once; one whose holder is unknown (no pid yet, or another
// host) is waited for until it goes stale, and the waiting always outlasts the staleness window.
import { mkdir, readFileSync, realpath, rm, rmSync, stat, utimes, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const STALE_MS = 10_000;
/** Longer than the staleness window, so that a lock left without a pid is taken over before giving up. */
const WAIT_MS = STALE_MS * 2;
const PID_FILE = 'pid';

// The lock directory holds the pid file: removing a lock (released, or taken over as stale) removes both.
// These are all the calls proper-lockfile makes.
const lockFs = {
  mkdir,
  stat,
  utimes,
  realpath,
  rmdir: (path: string, callback: (error: NodeJS.ErrnoException | null) => void) => rm(path, { recursive: true, force: true }, callback),
  rmdirSync: (path: string) => rmSync(path, { recursive: true, force: true }),
};

export type Release = () => Promise<void>;

/** Takes the lock of `file`; throws the ELOCKED error of proper-lockfile when a live holder keeps it too long. */
export async function lockFile(file: string): Promise<Release> {
  // proper-lockfile is CommonJS: its functions hang off the default export (as bundled, there is no other).
  const { default: lockfile } = await import('proper-lockfile');
  const lockDir = `${file}.lock`;
  const deadline = Date.now() + WAIT_MS;
  for (let attempt = 0; ; attempt += 1) {
    try {
      const release = await lockfile.lock(file, {
        realpath: false,
        stale: STALE_MS,
        retries: 0,
        fs: lockFs,
        // A lock taken over as stale while held: the write is a single atomic rename anyway; do not crash.
        onCompromised: () => undefined,
      });
      try {
        writeFileSync(join(lockDir, PID_FILE), `${process.pid}\n`, { mode: 0o600 });
      } catch {
        // Without a pid the lock is still a lock: others wait for it to go stale.
      }
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED' || Date.now() > deadline) throw error;
      if (holderIsDead(lockDir)) {
        // Stale in proper-lockfile's eyes: the next attempt removes it and takes the lock.
        try {
          utimesSync(lockDir, 0, 0);
        } catch {
          // Gone meanwhile: the next attempt finds it free.
        }
        continue;
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(250, 10 * 2 ** attempt) * (1 + Math.random())));
    }
  }
}

/** Runs `work` holding the lock of `file`; the lock goes however `work` ends (one that cannot be removed goes stale). */
export async function withLock<T>(file: string, work: () => T | Promise<T>): Promise<T> {
  const release = await lockFile(file);
  try {
    return await work();
  } finally {
    await release().catch(() => undefined);
  }
}

function holderIsDead(lockDir: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(lockDir, PID_FILE), 'utf8').trim());
  } catch {
    return false;
  }
  if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
