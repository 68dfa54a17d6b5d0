// The one test Context (as gh's iostreams.Test()): the Context a fresh process would build, on in-memory
// streams whose text the test reads back, in a config directory of its own; its HTTP clients can be sent to a
// MockAgent. Unit tests build every Context through this.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { createContext, type Context, type GlobalOptions } from '../../src/context.js';
import { createHttpClient, type HttpClientOptions } from '../../src/core/http/client.js';

export interface TestContextOptions {
  globals?: GlobalOptions;
  env?: NodeJS.ProcessEnv;
  /** Default: `config/` in a new temporary directory. */
  configDir?: string;
  /** A stream, or the text typed on stdin; default: nothing. */
  stdin?: NodeJS.ReadableStream | string;
  stdinTTY?: boolean;
  stdoutTTY?: boolean;
  stderrTTY?: boolean;
  /** The terminal's width, seen on stdout. */
  columns?: number;
  now?: () => Date;
  /** Every HTTP client of the Context sends through this (a MockAgent), with these options on top. */
  dispatcher?: Dispatcher;
  http?: Partial<HttpClientOptions>;
  /** Also hears what is written to stdout and stderr (tests that keep one transcript per scenario). */
  onWrite?: (text: string, stream: 'stdout' | 'stderr') => void;
}

export interface TestContext {
  ctx: Context;
  stdout(): string;
  stderr(): string;
  configDir: string;
}

type TestStream = Writable & { isTTY?: boolean; columns?: number };

function sink(append: (text: string) => void, isTTY: boolean, columns?: number): TestStream {
  const stream: TestStream = new Writable({
    write(chunk, _encoding, done) {
      append(String(chunk));
      done();
    },
  });
  stream.isTTY = isTTY;
  if (columns !== undefined) stream.columns = columns;
  return stream;
}

export function testContext(options: TestContextOptions = {}): TestContext {
  const configDir = options.configDir ?? join(mkdtempSync(join(tmpdir(), 'trident-unit-')), 'config');
  let out = '';
  let err = '';
  const stdout = sink((text) => ((out += text), options.onWrite?.(text, 'stdout')), options.stdoutTTY ?? false, options.columns);
  const stderr = sink((text) => ((err += text), options.onWrite?.(text, 'stderr')), options.stderrTTY ?? false);
  const stdin = (
    typeof options.stdin === 'string' || options.stdin === undefined
      ? Readable.from(options.stdin === undefined ? [] : [options.stdin])
      : options.stdin
  ) as Readable & {
    isTTY?: boolean;
  };
  stdin.isTTY = options.stdinTTY ?? false;
  const base = createContext(options.globals ?? {}, {
    io: { stdout, stderr, stdin },
    env: { TRIDENT_CONFIG_DIR: configDir, ...options.env },
    ...(options.now ? { now: options.now } : {}),
  });
  const { dispatcher } = options;
  const ctx: Context = dispatcher ? { ...base, http: async (http) => createHttpClient({ ...http, dispatcher, ...options.http }) } : base;
  return { ctx, stdout: () => out, stderr: () => err, configDir };
}
