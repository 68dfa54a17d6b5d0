// Small catalog databases for the catalog sandbox tests: the real schema, rows given by the test with
// defaults for the NOT NULL columns, and a running sandbox over the file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { CATALOG_SCHEMA_SQL } from '../../../src/sandbox/catalog/schema.js';
import { startCatalogSandbox, type CatalogSandbox } from '../../../src/sandbox/catalog/server.js';
import { openSqlite } from '../../../src/sandbox/catalog/sqlite/open.js';
import type { SqliteDatabase } from '../../../src/sandbox/catalog/sqlite/types.js';

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

/**
 * The hand-made catalog of the product tests (and the differential test), whose answers were worked out by hand.
 *
 * Settlements: Moscow and Zelenograd share the region `moscow`; Novosibirsk has no region_normalized (so
 * `novosibirsk oblast`); Nowhere has an empty region; Tatarstan has no products.
 *
 * Product aaa: id1 fixprice/Moscow (discount 90, promo, category 10), id2 chizhik/SPb (observed 02-04 09:00
 *   spelled with Z, empty brand), id3 "FixPrice"/Zelenograd (loyal 80; observed at the same instant as id2
 *   but written 12:00+03:00, updated later, so it is the representative row).
 * Product bbb: id4 perekrestok/Novosibirsk, no prices, no rating, a Cyrillic title.
 * Product ccc: id5 fixprice/Moscow (latest, rating 3), id6 perekrestok/Nowhere (price 40, rating 5).
 * Product ddd: id7 chizhik/no settlement (latest, rating 4.5), id8 fixprice/SPb, id9 perekrestok/Moscow.
 */
export const HAND_MADE_CATALOG: CatalogFixture = {
  settlements: [
    { id: 1, name: 'Moscow', region: 'Moscow', region_normalized: 'moscow', country: 'RUS' },
    { id: 2, name: 'Zelenograd', region: 'Moscow', region_normalized: 'moscow', country: 'RUS' },
    { id: 3, name: 'Saint Petersburg', region: 'Saint Petersburg', region_normalized: 'spb', country: 'RUS' },
    { id: 4, name: 'Novosibirsk', region: 'Novosibirsk Oblast', region_normalized: null, country: 'RUS' },
    { id: 5, name: 'Nowhere', region: '', region_normalized: '', country: 'RUS' },
    { id: 6, name: 'Kazan', region: 'Tatarstan', region_normalized: 'tatarstan', country: 'RUS' },
  ],
  categories: [{ id: 10, parser_name: 'fixprice', source_uid: 'cat-milk', title: 'Молоко', depth: 0 }],
  products: [
    {
      id: 1,
      canonical_product_id: 'aaa',
      parser_name: 'fixprice',
      title_original: ' Milk 1L ',
      brand: 'Brand A',
      price: 100,
      discount_price: 90,
      rating: 4.5,
      promo: 1,
      settlement_id: 1,
      primary_category_id: 10,
      observed_at: '2026-02-03T09:00:00+00:00',
    },
    {
      id: 2,
      canonical_product_id: 'aaa',
      parser_name: 'chizhik',
      title_original: 'Milk Chizhik',
      brand: '',
      price: 110,
      rating: 4.1,
      promo: 0,
      settlement_id: 3,
      observed_at: '2026-02-04T09:00:00Z',
      updated_at: '2026-02-04T09:00:00+00:00',
    },
    {
      id: 3,
      canonical_product_id: 'aaa',
      parser_name: 'FixPrice',
      title_original: 'Milk Fix Zelenograd',
      brand: '  ',
      price: 95,
      loyal_price: 80,
      rating: 4.0,
      promo: 0,
      settlement_id: 2,
      observed_at: '2026-02-04 12:00:00+03:00',
      updated_at: '2026-02-05T00:00:00+00:00',
    },
    {
      id: 4,
      canonical_product_id: 'bbb',
      parser_name: 'perekrestok',
      title_original: 'Кефир Простоквашино 1%',
      brand: 'Простоквашино',
      hit: 1,
      settlement_id: 4,
      observed_at: '2026-02-06T00:00:00+00:00',
    },
    {
      id: 5,
      canonical_product_id: 'ccc',
      parser_name: 'fixprice',
      title_original: 'Сок яблочный',
      brand: 'Добрый',
      price: 50,
      rating: 3.0,
      settlement_id: 1,
      observed_at: '2026-02-02T00:00:00+00:00',
    },
    {
      id: 6,
      canonical_product_id: 'ccc',
      parser_name: 'perekrestok',
      title_original: 'Сок яблочный 1 л',
      brand: 'Добрый',
      price: 40,
      rating: 5.0,
      settlement_id: 5,
      observed_at: '2026-02-01T00:00:00+00:00',
    },
    {
      id: 7,
      canonical_product_id: 'ddd',
      parser_name: 'chizhik',
      title_original: 'Шоколад молочный',
      brand: 'Alpen Gold',
      price: 50,
      rating: 4.5,
      observed_at: '2026-02-06T00:00:00+00:00',
    },
    {
      id: 8,
      canonical_product_id: 'ddd',
      parser_name: 'fixprice',
      title_original: 'Шоколад',
      brand: 'Alpen Gold',
      price: 55,
      settlement_id: 3,
      observed_at: '2026-02-05T00:00:00+00:00',
    },
    {
      id: 9,
      canonical_product_id: 'ddd',
      parser_name: 'perekrestok',
      title_original: 'Шоколад Alpen Gold',
      brand: 'Alpen Gold',
      price: 60,
      settlement_id: 1,
      observed_at: '2026-02-05T00:00:00+00:00',
    },
  ],
  assets: [
    { product_id: 1, sort_order: 0, value: 'https://img.example/1-0.webp' },
    { product_id: 3, sort_order: 1, value: 'https://img.example/3-1.webp' },
    { product_id: 3, sort_order: 0, value: 'https://img.example/3-0.webp' },
    { product_id: 7, sort_order: 1, value: 'https://img.example/7-1.webp' },
  ],
  snapshots: [
    {
      id: 1,
      canonical_product_id: 'aaa',
      parser_name: 'fixprice',
      source_id: 'src-1',
      price: 100,
      observed_at: '2026-02-01T10:00:00+00:00',
      valid_from_at: '2026-02-01T10:00:00+00:00',
      valid_to_at: '2026-02-02T10:00:00Z',
    },
    {
      id: 2,
      canonical_product_id: 'aaa',
      parser_name: 'fixprice',
      source_id: 'src-1',
      price: 90,
      discount_price: null,
      observed_at: '2026-02-03T09:00:00+00:00',
    },
    {
      id: 3,
      canonical_product_id: 'aaa',
      parser_name: 'chizhik',
      source_id: 'src-2',
      price: 110,
      available_count: 7,
      observed_at: '2026-02-03T09:00:00+00:00',
    },
    {
      id: 4,
      canonical_product_id: 'history-only',
      parser_name: 'fixprice',
      source_id: 'gone',
      price: 1,
      observed_at: '2026-01-01T00:00:00+00:00',
    },
  ],
};

const STAMP = '2026-02-01T00:00:00+00:00';

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'trident-catalog-'));
}

export function buildCatalogDb(fixture: CatalogFixture, file = join(tempDir(), 'catalog.db')): string {
  const db = openSqlite(file);
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

function insert(db: SqliteDatabase, table: string, rows: FixtureRow[] | undefined, defaults: (row: FixtureRow) => FixtureRow): void {
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

/** mulberry32: a small PRNG giving the same sequence on every run, so that a failure comes back. */
export function seededRandom(seed: number): {
  next(): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
  shuffle<T>(items: readonly T[]): T[];
} {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const shuffle = <T>(items: readonly T[]): T[] => {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i -= 1) {
      const j = Math.floor(next() * (i + 1));
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  };
  return { next, pick, chance: (p: number) => next() < p, shuffle };
}
