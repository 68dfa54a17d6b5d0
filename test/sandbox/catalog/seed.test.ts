// The seeded demo catalog: the number of products asked for, the same bytes of data on every run, the mix
// of history the dynamics rules need, and never over an existing file.
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { seedCatalogDb, seedingSteps } from '../../../src/sandbox/catalog/seed/seed-catalog.js';
import { startCatalogSandbox } from '../../../src/sandbox/catalog/server.js';
import { openSqlite } from '../../../src/sandbox/catalog/sqlite/open.js';
import { call, tempDir as makeTempDir } from './fixture.js';

const dirs: string[] = [];
function tempDir(): string {
  const dir = makeTempDir();
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const TABLES = [
  'catalog_products',
  'catalog_product_assets',
  'catalog_product_snapshots',
  'catalog_categories',
  'catalog_settlements',
  'converter_sync_state',
];
const NOW = new Date('2026-03-01T12:00:00Z');

function dump(file: string): Record<string, unknown[]> {
  const db = openSqlite(file, { readonly: true });
  try {
    return Object.fromEntries(TABLES.map((table) => [table, db.prepare(`SELECT * FROM ${table} ORDER BY rowid`).raw().all()]));
  } finally {
    db.close();
  }
}

describe('seedCatalogDb', () => {
  it('seeds 2000 products the sandbox counts, the same way every time', async () => {
    const dir = tempDir();
    const first = join(dir, 'a.db');
    const second = join(dir, 'b.db');
    seedCatalogDb(first, { products: 2000, seed: 42, now: NOW });
    seedCatalogDb(second, { products: 2000, seed: 42, now: NOW });
    expect(dump(second)).toEqual(dump(first));

    const sandbox = await startCatalogSandbox({ dbFile: first });
    try {
      expect((await call(sandbox.url, '/products/count')).body).toEqual({ products_count: 2000, stores: null, regions: null });
      const page = await call(sandbox.url, '/products?limit=100&offset=1900');
      expect(page.body.meta).toEqual({ limit: 100, offset: 1900, total: 2000 });
      expect(page.body.items).toHaveLength(100);
      const stores = await call(sandbox.url, '/products/common/count?scope=stores');
      expect(stores.body).toMatchObject({ required_stores: 3 });
      expect(stores.body.common_products_count).toBeGreaterThan(100);
      // As the converter writes settlements: Russian lower case. Novosibirsk has no region_normalized,
      // Baikonur no region at all (empty text comes out as null).
      const settlements = (await call(sandbox.url, '/settlements?limit=100')).body.items as Array<{
        name: string;
        region: string | null;
        region_normalized: string | null;
      }>;
      expect(settlements.map((s) => s.region_normalized)).toEqual(
        expect.arrayContaining(['москва', 'санкт-петербург', 'республика татарстан', null]),
      );
      expect(settlements.find((s) => s.name === 'Москва')).toMatchObject({ geo_key: 'россия|москва|москва', country: 'Россия' });
      expect(settlements.find((s) => s.name === 'Байконур')).toMatchObject({ region: null, region_normalized: null });
      expect((await call(sandbox.url, '/products/count?region=%D0%9C%D0%BE%D1%81%D0%BA%D0%B2%D0%B0')).body.products_count).toBeGreaterThan(
        1000,
      );
      expect((await call(sandbox.url, '/products/common/count?scope=regions')).body.required_regions).toBe(5);
      expect((await call(sandbox.url, '/sync/cursors')).body.items.map((item: { parser_name: string }) => item.parser_name)).toEqual([
        'chizhik',
        'fixprice',
        'perekrestok',
      ]);

      // A source's year of history serves a daily series with values and gaps.
      const db = openSqlite(first, { readonly: true });
      const source = db.prepare('SELECT canonical_product_id, parser_name, source_id FROM catalog_products WHERE id = 1').get() as Record<
        string,
        string
      >;
      db.close();
      const query = new URLSearchParams({
        ...source,
        field: 'price',
        interval: '1d',
        date_from: '2025-03-01T12:00:00Z',
        date_to: '2026-03-01T12:00:00Z',
      });
      const series = await call(sandbox.url, `/products/${source.canonical_product_id}/dynamics?${query.toString()}`);
      expect(series.status).toBe(200);
      expect(series.body.values).toHaveLength(366);
      expect(series.body.values.some((value: number | null) => typeof value === 'number')).toBe(true);
    } finally {
      await sandbox.close();
    }
  });

  it('mixes points and intervals, null discount and loyalty prices, several stores per product', () => {
    const file = join(tempDir(), 'mix.db');
    seedCatalogDb(file, { products: 300, seed: 7, now: NOW });
    const db = openSqlite(file, { readonly: true });
    try {
      const one = (sql: string) => db.prepare(sql).pluck().get() as number;
      expect(one('SELECT COUNT(DISTINCT canonical_product_id) FROM catalog_products')).toBe(300);
      expect(one('SELECT COUNT(*) FROM catalog_product_snapshots WHERE valid_from_at IS NULL')).toBeGreaterThan(0);
      expect(one('SELECT COUNT(*) FROM catalog_product_snapshots WHERE valid_to_at > valid_from_at')).toBeGreaterThan(0);
      expect(one('SELECT COUNT(*) FROM catalog_product_snapshots WHERE discount_price IS NULL')).toBeGreaterThan(0);
      expect(one('SELECT COUNT(*) FROM catalog_product_snapshots WHERE loyal_price IS NOT NULL')).toBeGreaterThan(0);
      // The converter's conventions: naive UTC DATETIME text, NUMERIC prices (whole ones read back as
      // integers), BOOLEAN flags, its extra columns and tables.
      for (const column of ['observed_at', 'valid_to_at', 'created_at']) {
        expect(
          one(
            `SELECT COUNT(*) FROM catalog_product_snapshots WHERE ${column} NOT GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9] [0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9][0-9][0-9][0-9]'`,
          ),
        ).toBe(0);
      }
      expect(one("SELECT COUNT(*) FROM catalog_products WHERE updated_at NOT LIKE '____-__-__ __:__:__.______'")).toBe(0);
      expect(one("SELECT COUNT(*) FROM catalog_product_snapshots WHERE typeof(price) = 'integer'")).toBeGreaterThan(0);
      const declared = Object.fromEntries(
        (db.prepare('PRAGMA table_info(catalog_products)').all() as Array<{ name: string; type: string }>).map((c) => [c.name, c.type]),
      );
      expect(declared).toMatchObject({
        price: 'NUMERIC(12, 4)',
        promo: 'BOOLEAN',
        observed_at: 'DATETIME',
        source_page_url: 'TEXT',
        data_matrix: 'BOOLEAN',
      });
      expect(
        one(
          "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name IN ('catalog_product_sources', 'catalog_stores', 'catalog_identity_map')",
        ),
      ).toBe(3);
      expect(
        one(
          "SELECT COUNT(*) FROM pragma_index_list('catalog_products') l, pragma_index_info(l.name) i WHERE l.origin = 'c' GROUP BY l.name ORDER BY 1 DESC LIMIT 1",
        ),
      ).toBe(1);
      expect(one("SELECT COUNT(*) FROM catalog_categories WHERE category_key NOT LIKE parser_name || ':uid:%'")).toBe(0);
      expect(
        one('SELECT MIN(n) FROM (SELECT COUNT(*) AS n FROM catalog_product_snapshots GROUP BY parser_name, source_id)'),
      ).toBeGreaterThanOrEqual(10);
      expect(
        one('SELECT COUNT(*) FROM (SELECT 1 FROM catalog_products GROUP BY canonical_product_id HAVING COUNT(DISTINCT parser_name) > 1)'),
      ).toBeGreaterThan(50);
      expect(
        one('SELECT COUNT(*) FROM (SELECT 1 FROM catalog_products GROUP BY canonical_product_id HAVING COUNT(DISTINCT parser_name) = 1)'),
      ).toBeGreaterThan(50);
      expect(db.prepare('SELECT DISTINCT depth FROM catalog_categories ORDER BY depth').pluck().all()).toEqual([0, 1, 2]);
      expect(db.prepare('SELECT DISTINCT sort_order FROM catalog_product_assets ORDER BY 1').pluck().all()).toEqual([0, 1]);
    } finally {
      db.close();
    }
  });

  it('seeded a step at a time, says how many products are written and gives the same catalog', () => {
    const dir = tempDir();
    const whole = join(dir, 'whole.db');
    const stepped = join(dir, 'stepped.db');
    seedCatalogDb(whole, { products: 600, seed: 42, now: NOW });
    const steps = [...seedingSteps(stepped, { products: 600, seed: 42, now: NOW })];
    // Then once for each of the 16 indexes.
    expect(steps).toEqual([250, 500, ...Array<number>(17).fill(600)]);
    expect(dump(stepped)).toEqual(dump(whole));
  });

  it('a seeding that fails midway leaves no file', () => {
    const file = join(tempDir(), 'failing.db');
    const steps = seedingSteps(file, { products: 600 });
    expect(steps.next().value).toBe(250);
    expect(existsSync(file)).toBe(true);
    expect(() => steps.throw(new Error('disk gone'))).toThrow('disk gone');
    expect(existsSync(file)).toBe(false);
  });

  it('refuses to write over an existing file', () => {
    const file = join(tempDir(), 'taken.db');
    writeFileSync(file, 'keep me');
    expect(() => seedCatalogDb(file, { products: 1 })).toThrow(/EEXIST/);
  });
});
