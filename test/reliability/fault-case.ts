// One fault case: what the service is told to do wrong, the command run against it, and what must follow:
// the exit code, a one-line message (and hint) saying what happened, exactly the requests that may be sent,
// and, where a wait is owed (Retry-After), that it was waited.
import { expect } from 'vitest';
import type { FaultRule } from '../../src/sandbox/http/faults.js';
import { envFor, errorOf, requestsFrom, trident, withServices, type Kind, type Run, type Services } from './harness.js';

export interface FaultCase {
  name: string;
  /** Made when the case runs (an HTTP-date must be fresh). */
  faults?: FaultRule[] | (() => FaultRule[]);
  args: string[];
  /** Makes what the case needs in its own sandbox (a key to delete); returns operands appended to args. */
  prepare?: (services: Services) => string[] | Promise<string[]>;
  env?: Record<string, string>;
  /** stdin of the command (a password for --password-stdin). */
  input?: string;
  exit: number;
  message?: RegExp;
  hint?: RegExp;
  /** Exactly the requests the service must receive, as "METHOD /path" (a pattern where the path holds a new id). */
  sent: Array<string | RegExp>;
  /** The run took at least this long (a Retry-After was honoured) / at most this long (a timeout worked). */
  minMs?: number;
  maxMs?: number;
  /** What a success may say on stderr (default: nothing). */
  notes?: RegExp;
  /** A failure may leave rows already streamed on stdout (a list that broke off midway). */
  partialStdout?: boolean;
  /** More checks, on the run and on the state of the case's own sandboxes. */
  check?: (run: Run, services: Services) => void | Promise<void>;
}

/** Runs the case against a fresh sandbox of `kind` (cases may run concurrently), with the environment for it. */
export function runFaultCase(kind: Kind, c: FaultCase, env: (services: Services) => Record<string, string> = envFor[kind]): Promise<Run> {
  return withServices([kind], async (services) => {
    const { server } = services[kind];
    for (const rule of typeof c.faults === 'function' ? c.faults() : (c.faults ?? [])) server.faults.add(rule);
    const operands = (await c.prepare?.(services)) ?? [];
    const sent = requestsFrom(server);
    const run = await trident([...c.args, ...operands], { env: { ...env(services), ...c.env }, input: c.input });
    expect(run.exitCode, run.stderr).toBe(c.exit);
    if (c.exit === 0) {
      if (c.notes) expect(run.stderr).toMatch(c.notes);
      else expect(run.stderr).toBe('');
    } else {
      const { message, hint } = errorOf(c.partialStdout ? { ...run, stdout: '' } : run);
      if (c.message) expect(message).toMatch(c.message);
      if (c.hint) expect(hint).toMatch(c.hint);
      else expect(hint, 'every failure here says what to do next').toBeDefined();
    }
    expect(sent()).toEqual(c.sent.map((request) => (typeof request === 'string' ? request : expect.stringMatching(request))));
    if (c.minMs !== undefined) expect(run.ms).toBeGreaterThanOrEqual(c.minMs);
    if (c.maxMs !== undefined) expect(run.ms).toBeLessThanOrEqual(c.maxMs);
    await c.check?.(run, services);
    return run;
  });
}

/** `n` times the same request. */
export const times = (n: number, request: string): string[] => Array<string>(n).fill(request);
