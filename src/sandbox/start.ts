// Starts the three sandbox services together on loopback, each from its own folder; the command writes the
// profile that reaches them (profile.ts) only once everything listens.
import { existsSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { usageError } from '../core/errors.js';
import { ensurePrivateDir } from '../core/files/private-dir.js';
import { isLoopback } from '../core/http/url.js';
import { CatalogDb, CatalogDbError } from './catalog/db/catalog-db.js';
import { seedingSteps } from './catalog/seed/seed-catalog.js';
import { startCatalogSandbox, type CatalogSandbox } from './catalog/server.js';
import { startKeysSandbox, type KeysSandbox } from './keys/server.js';
import { startTimeSandbox, type TimeSandbox } from './time/server.js';

export const DEFAULT_SANDBOX_PORT = 8700;

export interface SandboxOptions {
  dir: string;
  host?: string;
  /** First port: keys, then time (+1) and catalog (+2). 0 picks free ones. */
  port?: number;
  /** Size of the seeded catalog when no --catalog-db is given. */
  products?: number;
  catalogDb?: string;
  /** Told how far the seeding of the catalog is: products written so far, of how many. */
  onSeeding?: (done: number, total: number) => void;
}

export interface RunningSandbox {
  keys: KeysSandbox;
  time: TimeSandbox;
  catalog: CatalogSandbox;
  dir: string;
  caFile: string;
  catalogDb: string;
  close(): Promise<void>;
}

export async function startSandbox(options: SandboxOptions): Promise<RunningSandbox> {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopback(new URL(`http://${host.includes(':') ? `[${host}]` : host}`))) {
    throw usageError(`the sandbox only listens on loopback, not ${host}`, 'use --host 127.0.0.1 or ::1');
  }
  const port = options.port ?? DEFAULT_SANDBOX_PORT;
  if (!Number.isInteger(port) || port < 0 || (port !== 0 && port > 65533))
    throw usageError(`invalid --port ${port}: expected 0 or 1–65533`);
  const dir = resolve(options.dir);
  try {
    ensurePrivateDir(dir);
  } catch (error) {
    throw usageError(`cannot use sandbox directory ${dir}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const catalogDb = options.catalogDb
    ? checkCatalogDb(resolve(options.catalogDb))
    : await seededCatalog(dir, options.products ?? 2000, options.onSeeding);

  const started: Array<{ close(): Promise<void> }> = [];
  const nextPort = (offset: number) => (port === 0 ? 0 : port + offset);
  try {
    const keys = await listen('keys', nextPort(0), () => startKeysSandbox({ dir, host, port: nextPort(0) }));
    started.push(keys);
    const time = await listen('time', nextPort(1), () => startTimeSandbox({ dir, host, port: nextPort(1) }));
    started.push(time);
    const catalog = await listen('catalog', nextPort(2), () => startCatalogSandbox({ dbFile: catalogDb, host, port: nextPort(2) }));
    started.push(catalog);
    return {
      keys,
      time,
      catalog,
      dir,
      caFile: time.caFile ?? join(dir, 'ca.pem'),
      catalogDb,
      close: async () => {
        await Promise.all(started.map((service) => service.close()));
      },
    };
  } catch (error) {
    await Promise.all(started.map((service) => service.close()));
    throw error;
  }
}

async function listen<T>(name: string, port: number, start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw usageError(`port ${port} (the ${name} service) is in use`, 'pick another --port, or --port 0 for free ones');
    if (code === 'EACCES') throw usageError(`not allowed to listen on port ${port} (the ${name} service)`, 'pick a port above 1023');
    throw error;
  }
}

function checkCatalogDb(file: string): string {
  try {
    CatalogDb.open(file).close();
  } catch (error) {
    if (error instanceof CatalogDbError) throw usageError(`cannot serve ${file}: ${error.message}`);
    throw error;
  }
  return file;
}

/**
 * The seeded demo catalog, made once per size; seeded under a temporary name so no half-made file is ever used,
 * and removed if the process ends first. Other work runs between the steps: an interrupt stops a long seeding
 * at once, and its progress is drawn as it goes.
 */
async function seededCatalog(dir: string, products: number, onSeeding?: (done: number, total: number) => void): Promise<string> {
  if (!Number.isInteger(products) || products < 1 || products > 1_000_000)
    throw usageError(`invalid --products ${products}: expected 1–1000000`);
  const file = join(dir, `catalog-${products}.db`);
  if (existsSync(file)) return file;
  const partial = `${file}.${process.pid}.partial`;
  // SQLite's journal beside it, too: the file is written in one transaction.
  const removePartial = () => {
    rmSync(partial, { force: true });
    rmSync(`${partial}-journal`, { force: true });
    // node-sqlite3-wasm (Node 20) locks a file with a directory beside it, left behind by a write it did not end.
    rmSync(`${partial}.lock`, { recursive: true, force: true });
  };
  removePartial();
  process.once('exit', removePartial);
  try {
    for (const done of seedingSteps(partial, { products })) {
      onSeeding?.(done, products);
      await new Promise((resolve) => setImmediate(resolve));
    }
    renameSync(partial, file);
  } catch (error) {
    removePartial();
    throw error;
  } finally {
    process.off('exit', removePartial);
  }
  return file;
}
