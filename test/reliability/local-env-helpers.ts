// What the hostile-local-environment tests share: private scratch directories, a stored token file as
// `time login` writes it, a FIFO that never ends, a tiny tmpfs to fill, and the sandbox requests a run caused.
import {
  chmodSync,
  closeSync,
  constants,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Services } from './harness.js';

/** A new directory of the given mode (chmod'ed: the umask does not count). */
export function scratchDir(mode = 0o700): string {
  const dir = mkdtempSync(join(tmpdir(), 'trident-localenv-'));
  chmodSync(dir, mode);
  return dir;
}

/** A config dir holding `tokens/default.json` with a working token of the time sandbox, as `time login` leaves it. */
export function configWithStoredToken(services: Services, configDir: string): { token: string; tokenFile: string } {
  const token = services.time.control.issueToken('trident-cli');
  mkdirSync(join(configDir, 'tokens'), { recursive: true, mode: 0o700 });
  const tokenFile = join(configDir, 'tokens', 'default.json');
  writeFileSync(
    tokenFile,
    `${JSON.stringify({ token, userAgent: 'trident-cli', accountId: null, email: null, createdAt: '2026-01-01T00:00:00.000Z' })}\n`,
    { mode: 0o600 },
  );
  return { token, tokenFile };
}

/** A copy of the keys sandbox's bootstrap private key, in `dir`, mode 0600. */
export function copyOfKey(services: Services, dir: string): string {
  const file = join(dir, 'key.pem');
  copyFileSync(services.keys.bootstrap.privateKeyFile, file);
  chmodSync(file, 0o600);
  return file;
}

/**
 * A FIFO that never ends: the test holds it open read-write (so a reader never sees "no writer") and keeps
 * writing without blocking until stopped.
 */
export function endlessFifo(): { path: string; stop(): Promise<void> } {
  const path = join(scratchDir(), 'endless');
  execFileSync('mkfifo', [path]);
  const fd = openSync(path, constants.O_RDWR | constants.O_NONBLOCK);
  const chunk = Buffer.alloc(64 * 1024, 'A');
  let stopped = false;
  const writing = (async () => {
    while (!stopped) {
      try {
        writeSync(fd, chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    }
  })();
  return {
    path,
    async stop() {
      stopped = true;
      await writing;
      closeSync(fd);
    },
  };
}

/** Every request any of the sandboxes received from now on, as "METHOD /path": call before the CLI runs. */
export function allRequestsFrom(services: Partial<Services>): () => string[] {
  const servers = (['keys', 'time', 'catalog'] as const).flatMap((kind) =>
    services[kind] ? [{ service: services[kind], start: services[kind].server.requests.length }] : [],
  );
  return () =>
    servers.flatMap(({ service, start }) => service.server.requests.slice(start).map((request) => `${request.method} ${request.path}`));
}

/** A 64 KiB tmpfs mounted on a fresh directory (0700), or why it cannot be (not root, no mount in a container). */
export function mountTinyTmpfs(): { dir?: string; why?: string } {
  const dir = join(scratchDir(), 'config');
  mkdirSync(dir, { mode: 0o700 });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k,mode=0700', 'tmpfs', dir], { stdio: 'pipe' });
    return { dir };
  } catch (error) {
    return { why: String((error as { stderr?: Buffer }).stderr ?? error).trim() };
  }
}

/** Whether a tmpfs can be mounted here; the reason it cannot, for the name of a skipped test. */
export function tmpfsProbe(): { can: boolean; skipped: string } {
  const probe = mountTinyTmpfs();
  if (probe.dir) execFileSync('umount', [probe.dir]);
  return { can: probe.dir !== undefined, skipped: probe.why ? ` (skipped: cannot mount a tmpfs: ${probe.why})` : '' };
}

/** Runs `use` on a fresh tiny tmpfs, unmounted after. */
export async function onTinyTmpfs(use: (dir: string) => Promise<void>): Promise<void> {
  const { dir, why } = mountTinyTmpfs();
  if (!dir) throw new Error(`cannot mount a tmpfs: ${why}`);
  try {
    await use(dir);
  } finally {
    execFileSync('umount', [dir]);
  }
}

const FILLER = /^filler-\d+$/;

/**
 * Fills the file system of `dir` with 4 KiB files until it is full, then frees `pagesLeft` of them (a file
 * of up to 4 KiB takes one page of a tmpfs). Returns a function that frees all of them.
 */
export function fillDisk(dir: string, pagesLeft = 0): () => void {
  let count = 0;
  try {
    for (; count < 1024; count += 1) writeFileSync(join(dir, `filler-${count}`), Buffer.alloc(4096, 1));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  }
  if (count === 1024) throw new Error(`${dir} did not fill up`);
  for (let n = 0; n < pagesLeft; n += 1) rmSync(join(dir, `filler-${n}`));
  return () => {
    for (const name of readdirSync(dir).filter((entry) => FILLER.test(entry))) rmSync(join(dir, name));
  };
}

/** Every file below `dir` but the fillers, as paths relative to it: what a command left behind. */
export function filesBelow(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => !entry.isDirectory() && !FILLER.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort();
}
