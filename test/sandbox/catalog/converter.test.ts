// The sandbox reads a catalog exactly as the real converter writes it: naive UTC DATETIME text taken as UTC,
// NUMERIC prices stored as integers served as numbers, BOOLEAN flags as booleans, extra columns and tables
// ignored, a category without a source uid.
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCatalogSandbox, type CatalogSandbox } from '../../../src/sandbox/catalog/server.js';
import { buildConverterDb, CONVERTER_OTHER, CONVERTER_PRODUCT } from './converter-db.js';
import { call, tempDir } from './fixture.js';

let file: string;
let sandbox: CatalogSandbox;
beforeAll(async () => {
  file = buildConverterDb(join(tempDir(), 'converter.db'));
  sandbox = await startCatalogSandbox({ dbFile: file });
});
afterAll(async () => {
  await sandbox.close();
  rmSync(dirname(file), { recursive: true, force: true });
});

const get = async (path: string) => {
  const answer = await call(sandbox.url, path);
  expect(answer.status, path).toBe(200);
  return answer.body;
};

describe("catalog sandbox on the converter's own output", () => {
  it('lists products with naive times as UTC, to the microsecond', async () => {
    expect(await get(`/products/${CONVERTER_PRODUCT}`)).toEqual({
      canonical_product_id: CONVERTER_PRODUCT,
      // The chizhik row, seen one microsecond after the fixprice row, is the representative one.
      title: 'Молоко 3,2% Простоквашино 930мл',
      brand: 'Простоквашино',
      price_from: 89.9,
      price_unit: 'RUB',
      sources_count: 2,
      observed_at_latest: '2026-02-01T11:53:00.000001Z',
      image_url: null,
      parsers: ['fixprice', 'chizhik'],
    });
    const list = await get('/products?sort=observed_at_asc');
    expect(list.items.map((item: { canonical_product_id: string }) => item.canonical_product_id)).toEqual([
      CONVERTER_OTHER,
      CONVERTER_PRODUCT,
    ]);
    expect(list.items[0]).toMatchObject({ brand: 'Простоквашино', price_from: 69, observed_at_latest: '2026-01-31T20:00:00Z' });
  });

  it('serves sources with integer NUMERIC prices as numbers and BOOLEAN flags as booleans', async () => {
    const sources = await get(`/products/${CONVERTER_PRODUCT}/sources?sort=observed_at_asc`);
    expect(sources.items[0]).toMatchObject({
      parser_name: 'fixprice',
      price: 100,
      discount_price: 89.9,
      promo: true,
      is_new: false,
      hit: false,
      adult: false,
      observed_at: '2026-02-01T11:53:00Z',
      image_urls: ['https://img.example/4607001/0.webp', 'https://img.example/4607001/1.webp'],
      primary_category: { id: 2, source_uid: '102', title: 'Молоко' },
      settlement: { id: 1, name: 'Москва', region: 'Москва', country: 'Россия' },
    });
    expect(sources.items[0]).not.toHaveProperty('source_page_url');
    expect(sources.items[1]).toMatchObject({
      parser_name: 'chizhik',
      primary_category: { id: 3, source_uid: null },
      observed_at: '2026-02-01T11:53:00.000001Z',
    });
  });

  it('counts by Russian region, snapshots and series over naive validity intervals, cursors', async () => {
    expect(await get('/products/count?region=%D0%9C%D0%BE%D1%81%D0%BA%D0%B2%D0%B0')).toEqual({
      products_count: 2,
      stores: null,
      regions: ['москва'],
    });
    expect(await get('/products/common/count?scope=regions')).toMatchObject({ common_products_count: 0, required_regions: 3 });
    const snapshots = await get(`/products/${CONVERTER_PRODUCT}/snapshots?parser_name=fixprice&sort=observed_at_asc`);
    expect(snapshots.items[0]).toMatchObject({
      price: 100,
      valid_from_at: '2026-01-30T10:00:00Z',
      valid_to_at: '2026-01-31T09:00:00Z',
      created_at: '2026-01-30T10:00:05.250000Z',
    });
    const query =
      'parser_name=fixprice&source_id=4607001&field=price&interval=6h&date_from=2026-01-30T06:00:00Z&date_to=2026-02-01T12:00:00Z';
    const series = await get(`/products/${CONVERTER_PRODUCT}/dynamics?${query}`);
    expect(series.values).toEqual([100, 100, 100, 100, 100, null, null, null, 100, null]);
    expect(await get('/sync/cursors')).toEqual({
      items: [{ parser_name: 'fixprice', ingested_at: '2026-02-01 11:53:00.000000', product_id: 502, updated_at: '2026-02-01T11:53:02Z' }],
    });
  });
});
