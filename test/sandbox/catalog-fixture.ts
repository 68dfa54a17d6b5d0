// Small catalog databases for the catalog sandbox tests: the real schema, rows given by the test with
// defaults for the NOT NULL columns, and a running sandbox over the file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { CATALOG_SCHEMA_SQL } from '../../src/sandbox/catalog-schema.js';
import { startCatalogSandbox, type CatalogSandbox } from '../../src/sandbox/catalog-server.js';

export type FixtureRow = Record<string, unknown>;

export interface CatalogFixture {
  products?: FixtureRow[];
  assets?: FixtureRow[];
  snapshots?: FixtureRow[];
  categories?: FixtureRow[];
  settlements?: FixtureRow[];
  cursors?: FixtureRow[];
  /** Leave converter_sync_state out, as older catalogs do. */
  withoutSyncState?: boolean;
}

const STAMP = '2026-02-01T00:00:00+00:00';

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'trident-catalog-'));
}

export function buildCatalogDb(fixture: CatalogFixture, file = join(tempDir(), 'catalog.db')): string {
  const db = new Database(file);
  db.exec(CATALOG_SCHEMA_SQL);
  if (fixture.withoutSyncState) db.exec('DROP TABLE converter_sync_state');
  insert(db, 'catalog_settlements', fixture.settlements, (row) => ({
    geo_key: `geo-${String(row.id)}`,
    first_seen_at: STAMP,
    last_seen_at: STAMP,
    updated_at: STAMP,
  }));
  insert(db, 'catalog_categories', fixture.categories, (row) => ({
    category_key: `${String(row.parser_name)}:${String(row.source_uid ?? row.id)}`,
    first_seen_at: STAMP,
    last_seen_at: STAMP,
    updated_at: STAMP,
  }));
  insert(db, 'catalog_products', fixture.products, (row) => {
    const title = (row.title_original as string | undefined) ?? `Product ${String(row.id)}`;
    const observed = (row.observed_at as string | undefined) ?? STAMP;
    return {
      source_id: `src-${String(row.id)}`,
      title_original: title,
      title_normalized_no_stopwords: title.toLowerCase(),
      unit: 'PCE',
      price_unit: 'RUB',
      observed_at: observed,
      created_at: observed,
      updated_at: observed,
    };
  });
  insert(db, 'catalog_product_assets', fixture.assets, () => ({ asset_kind: 'image_url', sort_order: 0 }));
  insert(db, 'catalog_product_snapshots', fixture.snapshots, (row) => ({
    source_event_uid: `evt-${String(row.id)}`,
    created_at: row.observed_at,
  }));
  if (!fixture.withoutSyncState) insert(db, 'converter_sync_state', fixture.cursors, () => ({ updated_at: STAMP }));
  db.close();
  return file;
}

function insert(db: Database.Database, table: string, rows: FixtureRow[] | undefined, defaults: (row: FixtureRow) => FixtureRow): void {
  for (const given of rows ?? []) {
    const row = { ...defaults(given), ...given };
    const columns = Object.keys(row);
    db.prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`).run(
      ...columns.map((column) => row[column] as string | number | null),
    );
  }
}

export interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

/** A sandbox over a fresh fixture database; closing it removes the database too. */
export async function startFixture(fixture: CatalogFixture): Promise<CatalogSandbox & { get(path: string): Promise<Answer> }> {
  const file = buildCatalogDb(fixture);
  const sandbox = await startCatalogSandbox({ dbFile: file });
  return {
    ...sandbox,
    close: async () => {
      await sandbox.close();
      rmSync(dirname(file), { recursive: true, force: true });
    },
    get: (path: string) => call(sandbox.url, path),
  };
}

export async function call(origin: string, path: string, init?: RequestInit): Promise<Answer> {
  const response = await fetch(`${origin}${path}`, { redirect: 'manual', ...init });
  const text = await response.text();
  let body: unknown = text;
  if ((response.headers.get('content-type') ?? '').includes('application/json')) body = JSON.parse(text);
  return { status: response.status, body, headers: response.headers };
}
