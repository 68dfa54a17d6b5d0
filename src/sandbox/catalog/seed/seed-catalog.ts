// A deterministic demo catalog written the way the real converter writes one: its column types and extra
// tables, naive UTC timestamps, Russian settlements. Three stores, several regions, a category tree, products
// sold by one to three stores, and about a year of history per source mixing point observations, validity
// intervals, price changes, missing discount/loyalty prices and gaps.
import { closeSync, openSync, rmSync } from 'node:fs';
import { Rng } from '../../rng.js';
import { CONVERTER_INDEXES_SQL, CONVERTER_TABLES_SQL } from '../converter-schema.js';
import { openSqlite } from '../sqlite/open.js';
import type { SqliteDatabase } from '../sqlite/types.js';
import { Seeder } from './seeder.js';
import { HOUR } from './snapshot-history.js';

export interface SeedCatalogOptions {
  /** Distinct products (canonical ids); default 2000. */
  products?: number;
  /** PRNG seed; default 1. */
  seed?: number;
  /** The end of the history; default the current time, floored to the hour. */
  now?: Date;
}

/** Creates a new SQLite file (never over an existing one) and fills it in one transaction. */
export function seedCatalogDb(file: string, options: SeedCatalogOptions = {}): void {
  for (const step of seedingSteps(file, options)) void step;
}

/**
 * The seeding of seedCatalogDb, a step at a time: each step yields the products written so far (and, once all
 * are, the total again after each index is built), so that the caller can say how far it is and let other work
 * run in between. On a failure the file is removed.
 */
export function* seedingSteps(file: string, options: SeedCatalogOptions = {}): Generator<number, void, void> {
  const products = options.products ?? 2000;
  if (!Number.isInteger(products) || products < 0) throw new RangeError(`products must be a non-negative integer, got ${products}`);
  const nowMs = options.now ? Math.floor(options.now.getTime() / 1000) * 1000 : Math.floor(Date.now() / HOUR) * HOUR;
  if (!Number.isFinite(nowMs)) throw new RangeError('now must be a valid date');

  closeSync(openSync(file, 'wx')); // refuses an existing file
  let db: SqliteDatabase | undefined;
  try {
    db = openSqlite(file);
    db.exec('PRAGMA journal_mode = OFF');
    db.exec('PRAGMA synchronous = OFF');
    db.exec(CONVERTER_TABLES_SQL);
    const seeder = new Seeder(db, new Rng(options.seed ?? 1), nowMs);
    db.exec('BEGIN');
    yield* seeder.run(products);
    db.exec('COMMIT');
    // A third of the time of a large catalog goes into its indexes.
    for (const index of CONVERTER_INDEXES_SQL.split(';').filter((statement) => statement.trim() !== '')) {
      db.exec(index);
      yield products;
    }
    db.exec('PRAGMA journal_mode = DELETE');
    db.close();
  } catch (error) {
    try {
      db?.close();
    } catch {
      // already failing; the file goes anyway
    }
    rmSync(file, { force: true });
    throw error;
  }
}
