// What the hostile-local-environment tests share: private scratch directories, a stored token file as
// `time login` writes it, a FIFO that never ends, and the sandbox requests a run caused.
import { chmodSync, closeSync, constants, copyFileSync, mkdirSync, mkdtempSync, openSync, writeFileSync, writeSync } from 'node:fs';
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
  writeFileSync(tokenFile, `${JSON.stringify({ token, userAgent: 'trident-cli', accountId: null, email: null, createdAt: '2026-01-01T00:00:00.000Z' })}\n`, { mode: 0o600 });
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
  const servers = (['keys', 'time', 'catalog'] as const).flatMap((kind) => (services[kind] ? [{ service: services[kind], start: services[kind].server.requests.length }] : []));
  return () => servers.flatMap(({ service, start }) => service.server.requests.slice(start).map((request) => `${request.method} ${request.path}`));
}
