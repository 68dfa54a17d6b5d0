// A real Secret Service for tests: gnome-keyring-daemon on a D-Bus session bus of its own (dbus-run-session),
// with its keyrings in a temporary data dir, so that sessions running at once never share an entry or a file.
// `unlocked: false` starts it without a password: no collection is open and every write is refused, as with a
// locked keychain. secret-tool (libsecret-tools) reads and clears entries behind trident's back.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configDirKeyringReference, keyringEntry } from '../../src/core/credentials/reference.js';

export const KEYRING_TOOLS = ['dbus-run-session', 'gnome-keyring-daemon', 'secret-tool'];

export interface KeyringSession {
  /** The environment a process needs to reach this keyring, where to store left to trident (auto). */
  env: Record<string, string>;
  /** The secret of `account` (service trident), or undefined; read with secret-tool. */
  lookup(account: string): string | undefined;
  /** The secret of every entry of the service trident. */
  secrets(): string[];
  /** Every entry of trident's: its account (username) and secret. */
  entries(): Array<{ account: string; secret: string }>;
  /** Removes the entry of `account` with secret-tool, as a user would behind trident's back. */
  clear(account: string): void;
  /** Writes an entry as trident's keyring library does, as an earlier release of trident would have. */
  put(account: string, secret: string): void;
  stop(): Promise<void>;
}

const STARTUP_MS = 20_000;

export async function startKeyringSession(options: { unlocked?: boolean } = {}): Promise<KeyringSession> {
  const dataDir = mkdtempSync(join(tmpdir(), 'trident-keyring-'));
  const unlock =
    options.unlocked === false
      ? 'gnome-keyring-daemon --start --components=secrets'
      : 'printf pw | gnome-keyring-daemon --unlock --components=secrets';
  // The shell prints the bus address once the daemon is up, then holds the session open until it is killed.
  const script = `${unlock} >/dev/null && echo "BUS=$DBUS_SESSION_BUS_ADDRESS" && exec sleep 3600`;
  const child: ChildProcess = spawn('dbus-run-session', ['--', 'sh', '-c', script], {
    env: { PATH: process.env.PATH, HOME: dataDir, XDG_DATA_HOME: dataDir, XDG_RUNTIME_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'ignore'],
    detached: true,
  });
  const address = await new Promise<string>((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`the keyring session did not start within ${STARTUP_MS} ms`)), STARTUP_MS);
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const match = /BUS=(\S+)/.exec(text);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the keyring session ended (${code}) before it started`));
    });
  });
  const env = { DBUS_SESSION_BUS_ADDRESS: address, TRIDENT_CREDENTIAL_STORE: 'auto' };
  const toolEnv = { PATH: process.env.PATH, HOME: dataDir, DBUS_SESSION_BUS_ADDRESS: address };
  const entries = (): Array<{ account: string; secret: string }> => {
    const found = spawnSync('secret-tool', ['search', '--all', 'service', 'trident'], {
      env: toolEnv,
      encoding: 'utf8',
      timeout: 10_000,
    });
    // One block per entry: "[/path]", "label = keyring:<account>@trident" (as @napi-rs/keyring labels its entries),
    // "secret = <the secret, its lines and all>", "created = ...". (The attributes go to stderr.)
    return (found.stdout ?? '').split(/^(?=\[\/)/m).flatMap((block) => {
      const secret = /^secret = ([\s\S]*?)\ncreated = /m.exec(block)?.[1];
      const account = /^label = keyring:(.*)@trident$/m.exec(block)?.[1];
      return secret === undefined || account === undefined ? [] : [{ account, secret }];
    });
  };
  return {
    env,
    lookup(account) {
      const found = spawnSync('secret-tool', ['lookup', 'service', 'trident', 'username', account], {
        env: toolEnv,
        encoding: 'utf8',
        timeout: 10_000,
      });
      return found.status === 0 && found.stdout !== '' ? found.stdout : undefined;
    },
    secrets() {
      return entries().map((entry) => entry.secret);
    },
    entries,
    clear(account) {
      spawnSync('secret-tool', ['clear', 'service', 'trident', 'username', account], { env: toolEnv, timeout: 10_000 });
    },
    put(account, secret) {
      const program = `new (require('@napi-rs/keyring').Entry)('trident', process.argv[1], { linux: { store: 'secret-service' } }).setPassword(require('fs').readFileSync(0, 'utf8'))`;
      const put = spawnSync(process.execPath, ['-e', program, account], { env: toolEnv, input: secret, timeout: 10_000 });
      if (put.status !== 0) throw new Error(`could not write the keyring entry ${account}: ${String(put.stderr)}`);
    },
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // Already gone.
      }
      if (child.exitCode === null && child.signalCode === null) await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The account (of the service trident) of a config dir's entry: `<dir tag>/<account>`. */
export function dirAccount(configDir: string, account: string): string {
  return keyringEntry(configDirKeyringReference(configDir, account))!.account;
}

/** The reference a profile records for a config dir's entry: `keyring:trident/<dir tag>/<account>`. */
export const dirReference = configDirKeyringReference;
