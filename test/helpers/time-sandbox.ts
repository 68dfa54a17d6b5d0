// The time e2e tests: one HTTPS time sandbox per test file, and the env that points the CLI at it.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startTimeSandbox, type TimeSandbox } from '../../src/sandbox/time/server.js';

export interface TimeHarness {
  sandbox: TimeSandbox;
  /** TRIDENT_TIME_URL and TRIDENT_CA_FILE for the sandbox. */
  env: Record<string, string>;
  /** The env above plus a fresh token for the User-Agent trident-cli. */
  tokenEnv(): Record<string, string>;
}

export function useTimeSandbox(): TimeHarness {
  const harness = {} as TimeHarness;
  beforeAll(async () => {
    const sandbox = await startTimeSandbox({ dir: mkdtempSync(join(tmpdir(), 'trident-time-e2e-')) });
    harness.sandbox = sandbox;
    harness.env = { TRIDENT_TIME_URL: sandbox.url, TRIDENT_CA_FILE: sandbox.caFile! };
    harness.tokenEnv = () => ({ ...harness.env, TRIDENT_TIME_TOKEN: sandbox.control.issueToken('trident-cli') });
  });
  afterAll(() => harness.sandbox?.close());
  return harness;
}
