// What the reliability files share: sandboxes of the three services (once per file, or fresh for each test so
// that tests with faults can run concurrently), the environment that points the built CLI at each, and the
// checks every failure must pass: one `trident: ` line, at most one `hint: ` line after it, and the requests
// the service really received.
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import type { CatalogSandbox } from '../../src/sandbox/catalog/server.js';
import type { KeysSandbox } from '../../src/sandbox/keys/server.js';
import type { RecordedRequest, RunningServer } from '../../src/sandbox/http/server.js';
import { startTimeSandbox, type TimeSandbox } from '../../src/sandbox/time/server.js';
import { makeSandboxTls, type SandboxTls } from '../../src/sandbox/http/tls.js';
import { smallCatalog, startSandbox as startCatalogSandbox } from '../helpers/catalog-fixtures.js';
import { sandboxEnv, startSandbox as startKeysSandbox } from '../helpers/keys-sandbox.js';
import { runCli, tempConfigDir, type CliOptions, type CliResult } from '../helpers/cli.js';

export { PROD_1, PROD_2 } from '../helpers/catalog-fixtures.js';
export { tempConfigDir };

export interface Services {
  keys: KeysSandbox;
  time: TimeSandbox;
  catalog: CatalogSandbox;
}

export type Kind = keyof Services;

// Made once per test file and shared by every sandbox started in it: the catalog database (only read) and
// the time sandbox's certificates (making them is the slow part of starting one).
let catalogDb: string | undefined;
let timeTls: SandboxTls | undefined;

/** Fresh sandboxes of the named kinds, on ports of their own: faults and requests of one test stay its own. */
export async function startServices(kinds: Kind[]): Promise<Services & { close(): Promise<void> }> {
  const services = {} as Services;
  const starters: Record<Kind, () => Promise<unknown>> = {
    keys: async () => (services.keys = await startKeysSandbox()),
    time: async () =>
      (services.time = await startTimeSandbox({
        tls: (timeTls ??= makeSandboxTls()),
        dir: mkdtempSync(join(tmpdir(), 'trident-rel-time-')),
      })),
    catalog: async () => (services.catalog = await startCatalogSandbox((catalogDb ??= smallCatalog()))),
  };
  await Promise.all(kinds.map((kind) => starters[kind]()));
  return Object.assign(services, { close: async () => void (await Promise.all(kinds.map((kind) => services[kind]?.close()))) });
}

/** Sandboxes for the whole file: started before its tests, stopped at the end. */
export function useServices(kinds: Kind[]): Services {
  const services = {} as Services;
  let running: Awaited<ReturnType<typeof startServices>> | undefined;
  beforeAll(async () => {
    running = await startServices(kinds);
    Object.assign(services, running);
  });
  afterAll(() => running?.close());
  return services;
}

/** Runs `use` with sandboxes of its own (for tests that run concurrently), and stops them after. */
export async function withServices<T>(kinds: Kind[], use: (services: Services) => Promise<T>): Promise<T> {
  const services = await startServices(kinds);
  try {
    return await use(services);
  } finally {
    await services.close();
  }
}

/** The environment that points the CLI at each service (time with a fresh token for the User-Agent trident-cli). */
export const envFor: {
  keys(services: Services): Record<string, string>;
  timeServer(services: Services): Record<string, string>;
  time(services: Services, token?: string): Record<string, string>;
  catalog(services: Services): Record<string, string>;
} = {
  keys: (services: Services) => sandboxEnv(services.keys),
  /** Where the time tracker is and its CA, without a token (for login). */
  timeServer: (services: Services) => ({ TRIDENT_TIME_URL: services.time.url, TRIDENT_CA_FILE: services.time.caFile! }),
  time: (services: Services, token = services.time.control.issueToken('trident-cli')) => ({
    ...envFor.timeServer(services),
    TRIDENT_TIME_TOKEN: token,
  }),
  catalog: (services: Services) => ({ TRIDENT_CATALOG_URL: services.catalog.url }),
};

export interface Run extends CliResult {
  ms: number;
  configDir: string;
}

/** Runs the built CLI with a fresh config dir (unless given), and times it. */
export async function trident(args: string[], options: CliOptions = {}): Promise<Run> {
  const configDir = options.configDir ?? tempConfigDir();
  const started = performance.now();
  const result = await runCli(args, { ...options, configDir });
  return { ...result, ms: performance.now() - started, configDir };
}

/**
 * A failure reads as one line `trident: <what happened>` and at most a `hint: <what to do>` line after it.
 * Returns both, for checks on their wording.
 */
export function errorOf(result: CliResult): { message: string; hint?: string } {
  const lines = result.stderr.replace(/\n$/, '').split('\n');
  expect(lines[0], result.stderr).toMatch(/^trident: \S/);
  expect(lines.length, result.stderr).toBeLessThanOrEqual(2);
  if (lines.length === 2) expect(lines[1], result.stderr).toMatch(/^hint: \S/);
  expect(result.stdout, 'a failure prints nothing on stdout').toBe('');
  return { message: lines[0]!.slice('trident: '.length), hint: lines[1]?.slice('hint: '.length) };
}

/** The requests a server receives from now on, as "METHOD /path": call before the CLI runs, read after. */
export function requestsFrom(server: RunningServer): () => string[] {
  const start = server.requests.length;
  return () => server.requests.slice(start).map((request: RecordedRequest) => `${request.method} ${request.path}`);
}

/** The requests a server receives from now on, whole (method, path, query, headers, body): call before the CLI runs, read after. */
export function requestsReceivedBy(server: RunningServer): () => RecordedRequest[] {
  const start = server.requests.length;
  return () => server.requests.slice(start);
}

/** The entries of a directory, [] when it does not exist. */
export function entries(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

/** A TCP port nothing listens on: a service that is down. */
export async function closedPort(): Promise<number> {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
