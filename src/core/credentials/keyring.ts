// The OS keyring (macOS Keychain, the Secret Service on Linux, Windows Credential Manager) through
// @napi-rs/keyring, every call with a deadline: a D-Bus peer that accepts a connection and never answers would
// otherwise hang it, and the whole process with it. The credential a command signs or logs in with is read in this
// process (`read`): a child process would cost the command more than the rest of its start. Everything else
// (writes, deletes, probes, what settles and moves keys) runs in a child process that is killed when its time is
// up. The native addon is loaded only by a command that uses the keyring.
import type { SpawnSyncOptionsWithStringEncoding } from 'node:child_process';
import { busAnswers, busSocket } from './session-bus.js';

/** How long one keyring call may take, child start included, before the keyring counts as not answering. */
export const KEYRING_DEADLINE_MS = 5000;

export interface KeyringEntry {
  service: string;
  account: string;
}

type Request =
  | { op: 'probe' }
  | { op: 'get' | 'delete'; entry: KeyringEntry }
  | { op: 'put'; entry: KeyringEntry; secret: string; force: boolean }
  | { op: 'has'; entries: KeyringEntry[] };

type Reply = { value: string | boolean | null | boolean[] } | { error: string; exists?: boolean };

/** The keyring could not be used: not there, locked, refusing, or silent past the deadline. */
export class KeyringFailure extends Error {
  constructor(
    readonly reason: string,
    /** put without force: the entry exists already. */
    readonly exists = false,
  ) {
    super(reason);
  }
}

/**
 * What the child runs. Its source text is handed to `node -e`, so it uses nothing of this module: the library
 * is required from beside this file (dist/ or src/), as the parent would find it. On Linux the entry is pinned
 * to the Secret Service: the kernel keyring the library would fall back to forgets everything at logout.
 */
function childMain(): void {
  const fs = process.getBuiltinModule('node:fs');
  const from = process.argv[1]!;
  const reply = (answer: unknown) => process.stdout.write(JSON.stringify(answer));
  try {
    const request = JSON.parse(fs.readFileSync(0, 'utf8')) as Request;
    const { Entry } = process.getBuiltinModule('node:module').createRequire(from)('@napi-rs/keyring') as typeof import('@napi-rs/keyring');
    const open = (entry: KeyringEntry) => new Entry(entry.service, entry.account, { linux: { store: 'secret-service' } });
    if (request.op === 'probe') {
      // A locked or read-only keyring fails on the write, so the probe writes, reads back and removes.
      const entry = open({ service: 'trident', account: `probe-${process.pid}` });
      entry.setPassword('probe');
      const back = entry.getPassword();
      entry.deletePassword();
      reply(back === 'probe' ? { value: true } : { error: 'the keyring did not give back what was written' });
    } else if (request.op === 'put') {
      const entry = open(request.entry);
      if (!request.force && entry.getPassword() !== null) {
        reply({ error: 'an entry of that name exists already', exists: true });
        return;
      }
      entry.setPassword(request.secret);
      reply(entry.getPassword() === request.secret ? { value: true } : { error: 'the keyring did not give back what was written' });
    } else if (request.op === 'has') {
      reply({ value: request.entries.map((entry) => open(entry).getPassword() !== null) });
    } else {
      const entry = open(request.entry);
      reply({ value: request.op === 'get' ? entry.getPassword() : entry.deletePassword() });
    }
  } catch (error) {
    reply({ error: String((error as Error)?.message ?? error) });
  }
}

const CHILD_SOURCE = `(${childMain.toString()})()`;

/**
 * Reads that outlived their deadline. Their thread never returns while the peer stays silent, and Node waits for
 * it before exiting: the command must exit on its own (keyringLeftWaiting, in main).
 */
let readsLeftWaiting = 0;
export const keyringLeftWaiting = (): boolean => readsLeftWaiting > 0;

/** The first line of a library message, without its "Platform failure:"-style prefixes repeated. */
const firstLine = (text: string) => text.split('\n')[0]!.trim().slice(0, 300);

/**
 * One keyring per process: once it has failed to answer in time, every later call fails at once, so that a
 * command with several credentials waits for one deadline, not one each.
 */
export class Keyring {
  private silent: string | undefined;

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly deadlineMs = KEYRING_DEADLINE_MS,
  ) {}

  /** Undefined when the keyring takes a write; else why not. */
  unusable(): string | undefined {
    try {
      this.call({ op: 'probe' });
      return undefined;
    } catch (error) {
      return (error as KeyringFailure).reason;
    }
  }

  /** The secret, or undefined when there is no such entry. */
  get(entry: KeyringEntry): string | undefined {
    const value = this.call({ op: 'get', entry });
    return typeof value === 'string' ? value : undefined;
  }

  /**
   * The secret, or undefined when there is no such entry. On Linux, with this process's own environment and a
   * session bus that answers, it is read in this process; anywhere else (a Keychain may ask its user first) in a
   * child, as every other call.
   */
  async read(entry: KeyringEntry): Promise<string | undefined> {
    if (this.env !== process.env || process.platform !== 'linux') return this.get(entry);
    this.reachable();
    const socket = busSocket(this.env.DBUS_SESSION_BUS_ADDRESS!);
    if (socket === undefined) return this.get(entry);
    if (!(await busAnswers(socket, this.deadlineMs))) throw this.silence();
    let timer: NodeJS.Timeout | undefined;
    try {
      const { AsyncEntry } = process.getBuiltinModule('node:module').createRequire(__filename)(
        '@napi-rs/keyring',
      ) as typeof import('@napi-rs/keyring');
      const asked = new AsyncEntry(entry.service, entry.account, { linux: { store: 'secret-service' } }).getPassword();
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          readsLeftWaiting++;
          const settled = () => readsLeftWaiting--;
          void asked.then(settled, settled);
          reject(this.silence());
        }, this.deadlineMs);
      });
      return (await Promise.race([asked, deadline])) ?? undefined;
    } catch (error) {
      if (error instanceof KeyringFailure) throw error;
      throw new KeyringFailure(firstLine(String((error as Error)?.message ?? error)));
    } finally {
      clearTimeout(timer);
    }
  }

  /** Writes the secret and reads it back; refuses to replace an entry unless forced. */
  put(entry: KeyringEntry, secret: string, force = false): void {
    this.call({ op: 'put', entry, secret, force });
  }

  /** True if an entry was removed. */
  delete(entry: KeyringEntry): boolean {
    return this.call({ op: 'delete', entry }) === true;
  }

  /** Which of the entries exist, asked in one call; their secrets never leave the child. */
  has(entries: KeyringEntry[]): boolean[] {
    if (entries.length === 0) return [];
    const value = this.call({ op: 'has', entries });
    return Array.isArray(value) ? value : entries.map(() => false);
  }

  /** From now on every call fails at once, as this one did. */
  private silence(): KeyringFailure {
    this.silent = `the OS keyring did not answer within ${this.deadlineMs / 1000} s`;
    return new KeyringFailure(this.silent);
  }

  /** Throws at once what is known already: the keyring was silent before, or there is no session bus to ask. */
  private reachable(): void {
    if (this.silent !== undefined) throw new KeyringFailure(this.silent);
    if (process.platform === 'linux' && !this.env.DBUS_SESSION_BUS_ADDRESS)
      throw new KeyringFailure('no D-Bus session to reach a Secret Service (DBUS_SESSION_BUS_ADDRESS is not set)');
  }

  private call(request: Request): string | boolean | null | boolean[] {
    this.reachable();
    // Loaded here: a command whose credentials are files never needs it.
    const { spawnSync } = process.getBuiltinModule('node:child_process');
    // The secret travels on stdin: a command line can be read by every user of the machine.
    const options: SpawnSyncOptionsWithStringEncoding & { detached: boolean } = {
      // A process group of its own: a signal to trident's (Ctrl-C, a job killed) must not cut a write in half
      // while trident, which defers it until the key is stored, waits for the answer. (spawnSync takes `detached`
      // as spawn does; its type leaves it out.)
      detached: true,
      input: JSON.stringify(request),
      env: this.env,
      timeout: this.deadlineMs,
      killSignal: 'SIGKILL',
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    };
    const child = spawnSync(process.execPath, ['-e', CHILD_SOURCE, __filename], options);
    if ((child.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT') throw this.silence();
    let reply: Reply;
    try {
      reply = JSON.parse(child.stdout) as Reply;
    } catch {
      throw new KeyringFailure(firstLine(child.error?.message ?? (child.stderr || `the keyring helper exited with ${child.status}`)));
    }
    if ('error' in reply) throw new KeyringFailure(firstLine(reply.error), reply.exists);
    return reply.value;
  }
}
