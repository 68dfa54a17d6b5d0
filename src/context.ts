// The Context handed to every command: io, env, clock, settings, output, logging, prompts and an HTTP
// client factory. Commands reach nothing global, so tests can build their own Context and call run().
import { retryWaitText } from './core/http/retry.js';
import { mebibytesFromEnv } from './core/files/capped-read.js';
import { usageError } from './core/errors.js';
import type { HttpClient, HttpClientOptions } from './core/http/client.js';
import { chooseFormat, useColor, type Format } from './core/term/output/format.js';
import { Output, type JsonFilter } from './core/term/output/output.js';
import { escapeControls, oneLine } from './core/term/printable.js';
import { startProgress, type Progress } from './core/term/progress.js';
import { createPrompter, type Prompter } from './core/term/prompt.js';
import { Interrupts } from './core/term/interrupts.js';
import { StdoutWatch } from './core/term/stdout-failure.js';
import { showCountdown, statusLineFor, writeAboveStatus } from './core/term/status-line.js';
import type { GlobalOptions } from './global-options.js';
import { Settings, SettingsStore, assertProfileName, configDir, type SettingSource } from './core/files/settings.js';

export type { GlobalOptions };

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
  /** The directory the command was started in (hooks run there). */
  cwd: string;
  /** What a signal does now: stop, or wait for work that must not be cut in half (core/term/interrupts.ts). */
  interrupts: Interrupts;
  /** What happens when stdout goes away mid-command (core/term/stdout-failure.ts). */
  stdoutWatch: StdoutWatch;
  configDir: string;
  profile: string;
  settings: Settings;
  output: Output;
  format: Format;
  log: Logger;
  prompter: Prompter;
  yes: boolean;
  /** How far long work is, on stderr's status line; undefined where none is shown (core/term/status-line.ts). */
  progress(noun: string): Progress | undefined;
  /** An HTTP client for one service; undici is loaded on first use. */
  http(
    options: Pick<HttpClientOptions, 'serviceName' | 'userAgent' | 'maxResponseBytes' | 'onHeaders'> & { caFile?: string; baseUrl?: URL },
  ): Promise<HttpClient>;
  /** Closes the HTTP clients (their keep-alive sockets would hold the process open). */
  close(): Promise<void>;
}

export interface ContextDeps {
  io: IO;
  env: NodeJS.ProcessEnv;
  now?: () => Date;
  cwd?: string;
  /** The invocation's own, which the process's signal and stdout handlers consult; a new one by default. */
  interrupts?: Interrupts;
  stdoutWatch?: StdoutWatch;
}

/** Notes and warnings echo names and service messages: one line each, of sane length. */
const NOTE_MAX = 2000;

export function createContext(globals: GlobalOptions, deps: ContextDeps): Context {
  const { io, env } = deps;
  const dir = configDir(env);
  const store = new SettingsStore(dir);
  // --profile, else TRIDENT_PROFILE, else the profile `trident config use` chose, else the one called default.
  const profile = assertProfileName(globals.profile ?? env.TRIDENT_PROFILE ?? store.defaultProfile() ?? 'default');
  if (globals.jq !== undefined && globals.output !== undefined && globals.output !== 'json') {
    throw usageError(`--jq filters JSON output: it cannot be used with -o ${globals.output}`, 'leave out -o (--jq implies -o json)');
  }
  const settings = new Settings(store, profile, env, {
    ...(globals.output !== undefined ? { output: globals.output } : {}),
    ...(globals.json || globals.jq !== undefined ? { output: 'json' } : {}),
    ...(globals.caFile !== undefined ? { caFile: globals.caFile } : {}),
  });
  const output = settings.resolve('output');
  const format = chooseFormat(output.value, Boolean(io.stdout.isTTY), sourceName(output.source, 'TRIDENT_OUTPUT', profile, 'output'));
  const debugEnabled = Boolean(globals.debug) || env.TRIDENT_DEBUG === '1';
  const quiet = Boolean(globals.quiet);
  const timeoutMs = parseSeconds(globals.timeout ?? env.TRIDENT_TIMEOUT, globals.timeout !== undefined ? '--timeout' : 'TRIDENT_TIMEOUT');
  const retries = parseCount(globals.retries, '--retries');
  const maxResponseBytes = mebibytesFromEnv(env, 'TRIDENT_MAX_RESPONSE_MB');
  // CI=true (or any value) means no prompts; CI=false and CI=0 are the usual ways of saying it is not CI.
  const noInput = globals.input === false || !['', 'false', '0', undefined].includes(env.CI?.toLowerCase());
  const clients: HttpClient[] = [];
  // Lists stream their rows in every format but the table, which is printed at the end.
  const status = () => statusLineFor({ stderr: io.stderr, stdout: io.stdout, env, quiet, rowsStream: format !== 'table' });
  const toStderr = (text: string) => writeAboveStatus(io.stderr, text);
  const retryNotice = (): HttpClientOptions['onRetryWait'] => {
    const line = status();
    return line && ((wait) => showCountdown(line, wait.ms, (ms) => retryWaitText({ ...wait, ms })));
  };

  const log = createLogger(toStderr, { debugEnabled, quiet });

  return {
    io,
    env,
    now: deps.now ?? (() => new Date()),
    cwd: deps.cwd ?? process.cwd(),
    interrupts: deps.interrupts ?? new Interrupts(),
    stdoutWatch: deps.stdoutWatch ?? new StdoutWatch(),
    configDir: dir,
    profile,
    settings,
    format,
    output: new Output(io.stdout, format, useColor(globals.color, env, Boolean(io.stdout.isTTY)), jqFilter(globals.jq)),
    log,
    yes: Boolean(globals.yes),
    prompter: createPrompter({ io, yes: Boolean(globals.yes), noInput }),
    progress(noun) {
      const line = status();
      return line && startProgress(line, noun);
    },
    async http({ baseUrl, ...options }) {
      const { openHttpClient } = await import('./core/http/client.js');
      const ca = settings.resolve('caFile', options.caFile);
      const client = await openHttpClient({
        ...options,
        // Extra CAs matter only to TLS: for a plain-HTTP service one from the profile or the environment is not
        // read (nor node:tls loaded); one given as a flag is still checked.
        caFile: baseUrl?.protocol === 'http:' && ca.source !== 'flag' ? undefined : ca.value,
        maxResponseBytes: options.maxResponseBytes ?? maxResponseBytes,
        timeoutMs,
        retries,
        env,
        debug: debugEnabled ? (line) => toStderr(`debug: ${escapeControls(line)}\n`) : undefined,
        onRetryWait: retryNotice(),
      });
      clients.push(client);
      return client;
    },
    async close() {
      await Promise.all(clients.splice(0).map((client) => client.close()));
    },
  };
}

/** Notes and warnings on stderr, one line each (none under --quiet); debug lines only with --debug. */
function createLogger(toStderr: (text: string) => void, { debugEnabled, quiet }: { debugEnabled: boolean; quiet: boolean }): Logger {
  return {
    debugEnabled,
    quiet,
    info: (message) => {
      if (!quiet) toStderr(`${oneLine(message, NOTE_MAX)}\n`);
    },
    warn: (message) => {
      if (!quiet) toStderr(`warning: ${oneLine(message, NOTE_MAX)}\n`);
    },
    debug: (message) => {
      if (debugEnabled) toStderr(`debug: ${escapeControls(message)}\n`);
    },
  };
}

function jqFilter(expression: string | undefined): JsonFilter | undefined {
  if (expression === undefined) return undefined;
  return async (value, write) => (await import('./core/term/jq.js')).applyJq(expression, value, write);
}

function parseSeconds(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 3600) {
    throw usageError(`invalid ${flag} "${value}": expected a number of seconds above 0, at most 3600`);
  }
  return Math.round(seconds * 1000);
}

/** How a value's origin is named in a message about it: the flag, the variable, or the profile's setting. */
function sourceName(source: SettingSource | undefined, envName: string, profile: string, key: string): string {
  if (source === 'env') return envName;
  if (source === 'profile') return `${key} setting of profile "${profile}"`;
  return `--${key}`;
}

function parseCount(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) > 10) throw usageError(`invalid ${flag} "${value}": expected a whole number from 0 to 10`);
  return Number(value);
}
