// The Context handed to every command: io, env, clock, settings, output, logging, prompts and an HTTP
// client factory. Commands reach nothing global, so tests can build their own Context and call run().
import { ExitCode, TridentError, usageError } from './core/errors.js';
import type { HttpClient, HttpClientOptions } from './core/http.js';
import { Output, chooseFormat, useColor, type Format } from './core/output.js';
import { createPrompter, type Prompter } from './core/prompt.js';
import { Settings, SettingsStore, assertProfileName, configDir } from './core/settings.js';

export interface GlobalOptions {
  profile?: string;
  output?: string;
  json?: boolean;
  color?: boolean;
  quiet?: boolean;
  debug?: boolean;
  timeout?: string;
  retries?: string;
  caFile?: string;
  yes?: boolean;
  input?: boolean;
}

export type OutStream = NodeJS.WritableStream & { isTTY?: boolean };
export type InStream = NodeJS.ReadableStream & { isTTY?: boolean };

export interface IO {
  stdout: OutStream;
  stderr: OutStream;
  stdin: InStream;
}

export interface Logger {
  /** Progress and notes for people; silenced by --quiet. */
  info(message: string): void;
  warn(message: string): void;
  /** Only with --debug. */
  debug(message: string): void;
  readonly debugEnabled: boolean;
  /** --quiet: progress indicators stay off too. */
  readonly quiet?: boolean;
}

export interface Context {
  io: IO;
  env: NodeJS.ProcessEnv;
  now(): Date;
  configDir: string;
  profile: string;
  settings: Settings;
  output: Output;
  format: Format;
  log: Logger;
  prompter: Prompter;
  yes: boolean;
  /** An HTTP client for one service; undici is loaded on first use. */
  http(options: Pick<HttpClientOptions, 'serviceName' | 'userAgent' | 'maxResponseBytes'> & { caFile?: string }): Promise<HttpClient>;
  /** Closes the HTTP clients (their keep-alive sockets would hold the process open). */
  close(): Promise<void>;
}

export interface ContextDeps {
  io: IO;
  env: NodeJS.ProcessEnv;
  now?: () => Date;
}

export function createContext(globals: GlobalOptions, deps: ContextDeps): Context {
  const { io, env } = deps;
  const profile = assertProfileName(globals.profile ?? env.TRIDENT_PROFILE ?? 'default');
  const dir = configDir(env);
  const settings = new Settings(new SettingsStore(dir), profile, env, {
    ...(globals.output !== undefined ? { output: globals.output } : {}),
    ...(globals.json ? { output: 'json' } : {}),
    ...(globals.caFile !== undefined ? { caFile: globals.caFile } : {}),
  });
  const format = chooseFormat(settings.get('output'), Boolean(io.stdout.isTTY));
  const debugEnabled = Boolean(globals.debug) || env.TRIDENT_DEBUG === '1';
  const quiet = Boolean(globals.quiet);
  const timeoutMs = parseSeconds(globals.timeout ?? env.TRIDENT_TIMEOUT, '--timeout');
  const retries = parseCount(globals.retries, '--retries');
  const noInput = globals.input === false || Boolean(env.CI);
  const clients: HttpClient[] = [];

  const log: Logger = {
    debugEnabled,
    quiet,
    info: (message) => {
      if (!quiet) io.stderr.write(`${message}\n`);
    },
    warn: (message) => io.stderr.write(`warning: ${message}\n`),
    debug: (message) => {
      if (debugEnabled) io.stderr.write(`debug: ${message}\n`);
    },
  };

  return {
    io,
    env,
    now: deps.now ?? (() => new Date()),
    configDir: dir,
    profile,
    settings,
    format,
    output: new Output(io.stdout, format, useColor(globals.color, env, Boolean(io.stdout.isTTY))),
    log,
    yes: Boolean(globals.yes),
    prompter: createPrompter({ stdin: io.stdin, stderr: io.stderr, yes: Boolean(globals.yes), noInput }),
    async http(options) {
      const { createHttpClient } = await import('./core/http.js');
      const client = createHttpClient({
        ...options,
        caFile: options.caFile ?? settings.get('caFile'),
        timeoutMs,
        retries,
        env,
        debug: debugEnabled ? (line) => io.stderr.write(`debug: ${line}\n`) : undefined,
      });
      clients.push(client);
      return client;
    },
    async close() {
      await Promise.all(clients.splice(0).map((client) => client.close()));
    },
  };
}

function parseSeconds(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 3600) {
    throw usageError(`invalid ${flag} "${value}": expected seconds between 0 and 3600`);
  }
  return Math.round(seconds * 1000);
}

function parseCount(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) > 10) throw usageError(`invalid ${flag} "${value}": expected a whole number from 0 to 10`);
  return Number(value);
}

/** For commands: a required setting, or exit with a hint on how to set it. */
export function requireSetting(value: string | undefined, what: string, hint: string, exitCode: ExitCode = ExitCode.usage): string {
  if (value === undefined || value === '') throw new TridentError(exitCode, `no ${what} configured`, { hint });
  return value;
}
