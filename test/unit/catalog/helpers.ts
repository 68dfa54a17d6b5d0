// Shared by the catalog unit tests: a Context on fake streams (each with its own isTTY) whose HTTP clients
// talk to a MockAgent that answers from a function and records every path asked for; usage-error checks.
import { PassThrough } from 'node:stream';
import { MockAgent } from 'undici';
import { expect } from 'vitest';
import type { Context, GlobalOptions } from '../../../src/context.js';
import { ExitCode, TridentError } from '../../../src/core/errors.js';
import { testContext } from '../../helpers/context.js';

export const CATALOG_ORIGIN = 'http://catalog.test';

export interface FakeCatalog {
  ctx: Context;
  stdout: () => string;
  stderr: () => string;
  /** Paths with queries, in the order they were asked for. */
  seen: string[];
  close(): Promise<void>;
}

export interface FakeCatalogOptions {
  globals?: GlobalOptions;
  env?: NodeJS.ProcessEnv;
  now?: Date;
  stdoutTTY?: boolean;
  stderrTTY?: boolean;
  columns?: number;
  answer?: (path: string) => { status?: number; body: unknown };
}

export function fakeCatalog(options: FakeCatalogOptions = {}): FakeCatalog {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const seen: string[] = [];
  agent
    .get(CATALOG_ORIGIN)
    .intercept({ path: () => true, method: 'GET' })
    .reply(({ path }) => {
      seen.push(path);
      const { status = 200, body } = options.answer?.(path) ?? { body: { detail: 'no answer in this test' }, status: 500 };
      return { statusCode: status, data: JSON.stringify(body), responseOptions: { headers: { 'content-type': 'application/json' } } };
    })
    .persist();
  const { ctx, stdout, stderr } = testContext({
    globals: { output: 'json', ...options.globals },
    env: { TRIDENT_CATALOG_URL: CATALOG_ORIGIN, ...options.env },
    stdin: new PassThrough(),
    stdoutTTY: Boolean(options.stdoutTTY),
    stderrTTY: Boolean(options.stderrTTY),
    columns: options.columns,
    now: () => new Date(options.now ?? '2026-03-01T00:00:00Z'),
    dispatcher: agent,
    http: { retries: 0 },
  });
  return { ctx, stdout, stderr, seen, close: () => agent.close() };
}

/** The usage error (exit 2) that `fn` throws, or rejects with when it returns a promise. */
export function usageError(fn: () => unknown): TridentError {
  try {
    fn();
  } catch (error) {
    return asUsageError(error);
  }
  throw new Error('expected a usage error');
}

export async function usageRejection(promise: Promise<unknown>): Promise<TridentError> {
  return asUsageError(
    await promise.then(
      () => new Error('expected a usage error'),
      (reason: unknown) => reason,
    ),
  );
}

function asUsageError(error: unknown): TridentError {
  expect(error).toBeInstanceOf(TridentError);
  expect((error as TridentError).exitCode).toBe(ExitCode.usage);
  return error as TridentError;
}
