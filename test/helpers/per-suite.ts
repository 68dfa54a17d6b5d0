// One server for a whole suite (a test file, or the describe block it is called in): started before its first
// test, put back as it was after each test, and stopped after the last. The object returned is filled in once
// it has started, so a suite declares it once at the top: `const sandbox = useKeysSandbox();`.
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { CatalogSandbox } from '../../src/sandbox/catalog/server.js';
import type { KeysSandbox, KeysSandboxOptions } from '../../src/sandbox/keys/server.js';
import { startSandbox as startCatalog } from './catalog-fixtures.js';
import { startSandbox as startKeys } from './keys-sandbox.js';
import { startKeyringSession, type KeyringSession } from './keyring-session.js';

export function perSuite<T extends object>(start: () => Promise<T>, stop: (started: T) => Promise<void>, reset?: (started: T) => void): T {
  const server = {} as T;
  let started = false;
  beforeAll(async () => {
    Object.assign(server, await start());
    started = true;
  });
  if (reset)
    afterEach(() => {
      if (started) reset(server);
    });
  afterAll(async () => {
    if (started) await stop(server);
  });
  return server;
}

/**
 * Put back after each test: no fault armed, new keys accepted, requests recorded as usual (and for the catalog,
 * the requests recorded forgotten). Only for a suite whose tests run one at a time: a concurrent test's fault
 * would be cleared under it.
 */
export interface ResetAfterEach {
  resetAfterEach?: boolean;
}

export function useKeysSandbox({ resetAfterEach, ...options }: Partial<KeysSandboxOptions> & ResetAfterEach = {}): KeysSandbox {
  return perSuite(
    () => startKeys(options),
    (sandbox) => sandbox.close(),
    resetAfterEach
      ? (sandbox) => {
          sandbox.server.faults.clear();
          sandbox.control.rejectNewKeys(false);
          Reflect.deleteProperty(sandbox.server.requests, 'push');
        }
      : undefined,
  );
}

/** A catalog sandbox on the database file given. */
export function useCatalogSandbox(dbFile: string, { resetAfterEach }: ResetAfterEach = {}): CatalogSandbox {
  return perSuite(
    () => startCatalog(dbFile),
    (sandbox) => sandbox.close(),
    resetAfterEach
      ? (sandbox) => {
          sandbox.server.faults.clear();
          sandbox.server.requests.length = 0;
        }
      : undefined,
  );
}

/** A Secret Service of the suite's own (gnome-keyring on a private D-Bus), unlocked unless asked otherwise. */
export function useKeyringSession(options: { unlocked?: boolean } = {}): KeyringSession {
  return perSuite(
    () => startKeyringSession(options),
    (keyring) => keyring.stop(),
  );
}
