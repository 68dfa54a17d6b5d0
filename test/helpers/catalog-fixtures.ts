// Catalog databases for the e2e tests: a small hand-made one whose answers are known exactly (the public
// service's worked examples: prod-1 from fixprice and chizhik, prod-2 from fixprice, all in Moscow), and a
// seeded one large enough for paging. Each test file gets its own sandbox on 127.0.0.1.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CATALOG_SCHEMA_SQL } from '../../src/sandbox/catalog/schema.js';
import { seedCatalogDb } from '../../src/sandbox/catalog/seed/seed-catalog.js';
import { startCatalogSandbox, type CatalogSandbox } from '../../src/sandbox/catalog/server.js';
import { openSqlite } from '../../src/sandbox/catalog/sqlite/open.js';

export const PROD_1 = '11111111-1111-4111-8111-111111111111';
export const PROD_2 = '22222222-2222-4222-8222-222222222222';

const T = '2026-02-10T00:00:00+00:00';

function tempFile(name: string): string {
  return join(mkdtempSync(join(tmpdir(), 'trident-catalog-e2e-')), name);
}

/**
 * Two products, all in Moscow: prod-1 sold by fixprice (source fp-1) and chizhik (ch-1), prod-2 by
 * fixprice (fp-2). fp-1 has price snapshots 100 at 02-01 10:00, 90 at 02-01 15:00 and 80 at 02-03 10:00.
 * A second settlement (Saint Petersburg) has no products; two categories; one sync cursor.
 */
export function smallCatalog(): string {
  const file = tempFile('small.sqlite');
  const db = openSqlite(file);
  db.exec(CATALOG_SCHEMA_SQL);
  const settlement = db.prepare(
    `INSERT INTO catalog_settlements (id, geo_key, country, country_normalized, region, region_normalized, name, name_normalized, settlement_type, first_seen_at, last_seen_at, updated_at)
     VALUES (?, ?, 'Russia', 'russia', ?, ?, ?, ?, 'city', ?, ?, ?)`,
  );
  settlement.run(1, 'ru-moscow', 'Moscow', 'moscow', 'Moscow', 'moscow', T, T, T);
  settlement.run(2, 'ru-spb', 'Saint Petersburg', 'saint petersburg', 'Saint Petersburg', 'saint petersburg', T, T, T);
  const category = db.prepare(
    `INSERT INTO catalog_categories (id, category_key, parser_name, source_uid, parent_source_uid, title, title_normalized, depth, sort_order, first_seen_at, last_seen_at, updated_at)
     VALUES (?, ?, 'fixprice', ?, ?, ?, ?, ?, 0, ?, ?, ?)`,
  );
  category.run(10, 'fixprice:fp-food', 'fp-food', null, 'Food', 'food', 0, T, T, '2026-02-10T00:00:00+00:00');
  category.run(11, 'fixprice:fp-dairy', 'fp-dairy', 'fp-food', 'Dairy', 'dairy', 1, T, T, '2026-02-11T00:00:00+00:00');
  const product = db.prepare(
    `INSERT INTO catalog_products (id, canonical_product_id, parser_name, source_id, title_original, title_normalized_no_stopwords, brand, price, discount_price, price_unit, promo, unit, available_count, primary_category_id, settlement_id, observed_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'RUB', ?, 'pcs', ?, 11, 1, ?, ?, ?)`,
  );
  product.run(1, PROD_1, 'fixprice', 'fp-1', 'Milk 1l', 'milk 1l', 'Prostokvashino', 100, 80, 1, 12, '2026-02-03T10:00:00+00:00', T, T);
  product.run(2, PROD_1, 'chizhik', 'ch-1', 'Milk 1 l', 'milk 1 l', 'Prostokvashino', 95, null, 0, 3, '2026-02-02T10:00:00+00:00', T, T);
  product.run(3, PROD_2, 'fixprice', 'fp-2', 'Bread', 'bread', 'Hlebny Dom', 40, null, 0, 7, '2026-02-01T10:00:00+00:00', T, T);
  const snapshot = db.prepare(
    `INSERT INTO catalog_product_snapshots (id, canonical_product_id, parser_name, source_id, source_event_uid, price, price_unit, available_count, valid_from_at, valid_to_at, observed_at, created_at)
     VALUES (?, ?, ?, ?, ?, ?, 'RUB', ?, ?, ?, ?, ?)`,
  );
  for (const [id, price, count, at] of [
    [1, 100, 10, '2026-02-01T10:00:00+00:00'],
    [2, 90, null, '2026-02-01T15:00:00+00:00'],
    [3, 80, 12, '2026-02-03T10:00:00+00:00'],
  ] as const) {
    snapshot.run(id, PROD_1, 'fixprice', 'fp-1', `e${id}`, price, count, at, at, at, at);
  }
  snapshot.run(
    4,
    PROD_1,
    'chizhik',
    'ch-1',
    'e4',
    95,
    3,
    '2026-02-02T10:00:00+00:00',
    '2026-02-02T10:00:00+00:00',
    '2026-02-02T10:00:00+00:00',
    T,
  );
  db.prepare('INSERT INTO converter_sync_state (key, value, updated_at) VALUES (?, ?, ?)').run(
    'receiver_cursor:fixprice',
    '2026-02-03T10:00:00+00:00\t42',
    T,
  );
  db.close();
  return file;
}

export function seededCatalog(products: number): string {
  const file = tempFile('seeded.sqlite');
  seedCatalogDb(file, { products, seed: 7, now: new Date('2026-03-01T00:00:00Z') });
  return file;
}

export function startSandbox(dbFile: string): Promise<CatalogSandbox> {
  return startCatalogSandbox({ dbFile });
}
