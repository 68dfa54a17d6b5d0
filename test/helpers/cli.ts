// Runs the built `trident` binary the way a user or a script does: a real process, real sockets,
// its own config dir, no terminal, nothing inherited that could change its behaviour.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa, type ResultPromise } from 'execa';

/** The CLI the test run built (test/global-setup.ts), with its test-only hooks: never the user's dist/. */
export const BIN = resolve(import.meta.dirname, '../../.test-build/bin/trident.cjs');

export interface CliResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  env?: Record<string, string | undefined>;
  input?: string;
  configDir?: string;
  timeoutMs?: number;
  /** The working directory (default: the test run's). */
  cwd?: string;
}

/** A fresh, private config dir for one test. */
export function tempConfigDir(): string {
  return join(mkdtempSync(join(tmpdir(), 'trident-test-')), 'config');
}

export function childEnv(options: CliOptions): Record<string, string | undefined> {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TRIDENT_CONFIG_DIR: options.configDir ?? tempConfigDir(),
    // Keys and tokens go to files unless a test asks otherwise: not the machine's keyring, and no note about
    // its absence. The keyring's tests (keyring-session.ts) set auto or keyring themselves.
    TRIDENT_CREDENTIAL_STORE: 'file',
    ...options.env,
  };
}

/** Starts the CLI and returns the running process (for tests that kill it midway). */
export function spawnCli(args: string[], options: CliOptions = {}): ResultPromise<{ reject: false; extendEnv: false }> {
  return execa(process.execPath, [BIN, ...args], {
    env: childEnv(options),
    extendEnv: false,
    cwd: options.cwd,
    reject: false,
    stripFinalNewline: false,
    input: options.input,
    stdin: options.input === undefined ? 'ignore' : undefined,
    timeout: options.timeoutMs ?? 60_000,
  } as { reject: false; extendEnv: false });
}

export async function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  const result = await spawnCli(args, options);
  return { exitCode: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr) };
}
