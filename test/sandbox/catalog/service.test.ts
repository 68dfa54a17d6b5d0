// The rest of the sandbox catalog: the public service's worked count examples, routing and error shapes,
// health, categories, settlements, sync cursors, and what happens with a database that is not a catalog.
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogDbError, startCatalogSandbox } from '../../../src/sandbox/catalog/server.js';
import { openSqlite } from '../../../src/sandbox/catalog/sqlite/open.js';
import { buildCatalogDb, call, startFixture, tempDir, type CatalogFixture } from './fixture.js';

const WORKED: CatalogFixture = {
  settlements: [{ id: 1, name: 'Moscow', region: 'Moscow', region_normalized: 'moscow' }],
  products: [
    { id: 1, canonical_product_id: 'prod-1', parser_name: 'fixprice', settlement_id: 1 },
    { id: 2, canonical_product_id: 'prod-1', parser_name: 'chizhik', settlement_id: 1 },
    { id: 3, canonical_product_id: 'prod-2', parser_name: 'fixprice', settlement_id: 1 },
  ],
};

describe('catalog sandbox: the worked count examples', () => {
  let sandbox: Awaited<ReturnType<typeof startFixture>>;
  beforeAll(async () => {
    sandbox = await startFixture(WORKED);
  });
  afterAll(() => sandbox.close());

  it('answers as written', async () => {
    expect((await sandbox.get('/products/count')).body).toEqual({ products_count: 2, stores: null, regions: null });
    expect((await sandbox.get('/products/count?store=chizhik&region=moscow')).body).toEqual({
      products_count: 1,
      stores: ['chizhik'],
      regions: ['moscow'],
    });
    expect((await sandbox.get('/products/count?region=spb')).body).toEqual({ products_count: 0, stores: null, regions: ['spb'] });
    expect((await sandbox.get('/products/count?store=FixPrice&store=chizhik')).body).toEqual({
      products_count: 2,
      stores: ['fixprice', 'chizhik'],
      regions: null,
    });
    expect((await sandbox.get('/products/common/count?scope=stores')).body).toEqual({
      scope: 'stores',
      common_products_count: 1,
      required_stores: 2,
      required_regions: null,
      stores: null,
      regions: null,
    });
  });
});

const FIXTURE: CatalogFixture = {
  settlements: [
    {
      id: 1,
      name: 'Moscow',
      region: 'Moscow',
      region_normalized: 'moscow',
      country: 'RUS',
      alias: 'MSK',
      latitude: 55.75,
      longitude: 37.61,
      updated_at: '2026-02-01T00:00:00+00:00',
    },
    {
      id: 2,
      name: 'Saint Petersburg',
      region: 'Saint Petersburg',
      region_normalized: 'spb',
      country: 'RUS',
      updated_at: '2026-02-03T00:00:00Z',
    },
    { id: 3, name: 'Almaty', region: 'Almaty', region_normalized: 'almaty', country: 'KAZ', updated_at: '2026-02-02T05:00:00+03:00' },
  ],
  categories: [
    {
      id: 10,
      parser_name: 'fixprice',
      source_uid: 'cat-milk',
      title: 'Молочные продукты',
      title_normalized: 'молочные продукты',
      alias: 'dairy',
      depth: 0,
      sort_order: 0,
      updated_at: '2026-02-01T00:00:00+00:00',
    },
    {
      id: 11,
      parser_name: 'fixprice',
      source_uid: 'cat-kefir',
      parent_source_uid: 'cat-milk',
      title: 'Кефир',
      depth: 1,
      sort_order: 0,
      updated_at: '2026-02-03T00:00:00Z',
    },
    {
      id: 12,
      parser_name: 'chizhik',
      source_uid: 'ch-juice',
      title: ' Соки ',
      alias: '',
      depth: 0,
      sort_order: 1,
      updated_at: '2026-02-02T05:00:00+03:00',
    },
  ],
  products: [{ id: 1, canonical_product_id: 'prod-1', parser_name: 'fixprice' }],
  cursors: [
    { key: 'receiver_cursor:fixprice', value: '2026-02-03T00:00:00+00:00\t123', updated_at: '2026-02-03T00:01:00+00:00' },
    { key: 'receiver_cursor:chizhik', value: 'no tab here' },
    { key: 'other_state', value: 'x\t1' },
  ],
};

describe('catalog sandbox: routing, categories, settlements, cursors', () => {
  let sandbox: Awaited<ReturnType<typeof startFixture>>;
  beforeAll(async () => {
    sandbox = await startFixture(FIXTURE);
  });
  afterAll(() => sandbox.close());

  it('healthz', async () => {
    expect(await sandbox.get('/healthz')).toMatchObject({ status: 200, body: { status: 'ok' } });
  });

  it('unknown paths 404, other methods 405, a trailing slash is redirected', async () => {
    expect(await sandbox.get('/nope')).toMatchObject({ status: 404, body: { detail: 'Not Found' } });
    expect(await sandbox.get('/products/a/b/c')).toMatchObject({ status: 404, body: { detail: 'Not Found' } });
    const post = await call(sandbox.url, '/products', { method: 'POST', body: '{}' });
    expect(post).toMatchObject({ status: 405, body: { detail: 'Method Not Allowed' } });
    expect(post.headers.get('allow')).toBe('GET');
    expect((await call(sandbox.url, '/categories/10', { method: 'DELETE' })).status).toBe(405);
    const slash = await sandbox.get('/products/?limit=1');
    expect(slash.status).toBe(307);
    expect(slash.headers.get('location')).toBe(`${sandbox.url}/products?limit=1`);
    // Percent-encoded path segments are decoded before matching.
    expect(await sandbox.get('/products/prod%2D1')).toMatchObject({ status: 200, body: { canonical_product_id: 'prod-1' } });
  });

  it('categories: newest updated_at first (compared as times), filters, one category', async () => {
    const list = await sandbox.get('/categories');
    expect(list.body.meta).toEqual({ limit: 20, offset: 0, total: 3 });
    expect(list.body.items.map((item: { id: number }) => item.id)).toEqual([11, 12, 10]);
    expect(list.body.items[1]).toEqual({
      id: 12,
      category_key: 'chizhik:ch-juice',
      parser_name: 'chizhik',
      source_uid: 'ch-juice',
      parent_source_uid: null,
      title: 'Соки',
      title_normalized: null,
      alias: null,
      depth: 0,
      sort_order: 1,
      first_seen_at: '2026-02-01T00:00:00Z',
      last_seen_at: '2026-02-01T00:00:00Z',
      updated_at: '2026-02-02T02:00:00Z',
    });
    const itemIds = async (q: string) => (await sandbox.get(`/categories?${q}`)).body.items.map((item: { id: number }) => item.id);
    expect(await itemIds('parser_name=fixprice')).toEqual([11, 10]);
    expect(await itemIds('depth=0')).toEqual([12, 10]);
    expect(await itemIds('parent_source_uid=cat-milk')).toEqual([11]);
    expect(await itemIds(`q=${encodeURIComponent('КЕФ')}`)).toEqual([11]);
    expect(await itemIds('q=dairy')).toEqual([10]);
    expect(await itemIds('limit=1&offset=2')).toEqual([10]);
    expect((await sandbox.get('/categories?depth=deep')).body.detail).toEqual([
      {
        type: 'int_parsing',
        loc: ['query', 'depth'],
        msg: 'Input should be a valid integer, unable to parse string as an integer',
        input: 'deep',
      },
    ]);
    expect(await sandbox.get('/categories/11')).toMatchObject({
      status: 200,
      body: { id: 11, title: 'Кефир', parent_source_uid: 'cat-milk', updated_at: '2026-02-03T00:00:00Z' },
    });
    expect(await sandbox.get('/categories/99')).toMatchObject({ status: 404, body: { detail: 'category_not_found' } });
    expect(await sandbox.get('/categories/abc')).toMatchObject({
      status: 422,
      body: {
        detail: [
          {
            type: 'int_parsing',
            loc: ['path', 'category_id'],
            msg: 'Input should be a valid integer, unable to parse string as an integer',
            input: 'abc',
          },
        ],
      },
    });
  });

  it('settlements: newest first, exact region, q, one settlement', async () => {
    const list = await sandbox.get('/settlements');
    expect(list.body.items.map((item: { id: number }) => item.id)).toEqual([2, 3, 1]);
    expect(list.body.items[2]).toEqual({
      id: 1,
      geo_key: 'geo-1',
      country: 'RUS',
      country_normalized: null,
      region: 'Moscow',
      region_normalized: 'moscow',
      name: 'Moscow',
      name_normalized: null,
      settlement_type: null,
      alias: 'MSK',
      latitude: 55.75,
      longitude: 37.61,
      first_seen_at: '2026-02-01T00:00:00Z',
      last_seen_at: '2026-02-01T00:00:00Z',
      updated_at: '2026-02-01T00:00:00Z',
    });
    const itemIds = async (q: string) => (await sandbox.get(`/settlements?${q}`)).body.items.map((item: { id: number }) => item.id);
    expect(await itemIds('region=Moscow')).toEqual([1]);
    expect(await itemIds('region=moscow')).toEqual([]);
    expect(await itemIds('country=KAZ')).toEqual([3]);
    expect(await itemIds('q=PETERSBURG')).toEqual([2]);
    expect(await itemIds('q=msk')).toEqual([1]);
    expect(await sandbox.get('/settlements/2')).toMatchObject({ status: 200, body: { id: 2, region_normalized: 'spb' } });
    expect(await sandbox.get('/settlements/999')).toMatchObject({ status: 404, body: { detail: 'settlement_not_found' } });
    expect((await sandbox.get('/settlements/x1')).status).toBe(422);
    expect((await sandbox.get('/settlements?offset=-5')).status).toBe(422);
  });

  it('sync cursors: receiver_cursor rows split into fields', async () => {
    expect((await sandbox.get('/sync/cursors')).body).toEqual({
      items: [
        { parser_name: 'chizhik', ingested_at: null, product_id: null, updated_at: '2026-02-01T00:00:00Z' },
        { parser_name: 'fixprice', ingested_at: '2026-02-03T00:00:00+00:00', product_id: 123, updated_at: '2026-02-03T00:01:00Z' },
      ],
    });
    expect((await sandbox.get('/sync/cursors?parser_name=%20FixPrice')).body.items).toMatchObject([
      { parser_name: 'fixprice', product_id: 123 },
    ]);
    expect((await sandbox.get('/sync/cursors?parser_name=magnit')).body).toEqual({ items: [] });
  });
});

describe('catalog sandbox: databases that are not (or no longer) a catalog', () => {
  it('no converter_sync_state: no cursors', async () => {
    const sandbox = await startFixture({
      products: [{ id: 1, canonical_product_id: 'p', parser_name: 'fixprice' }],
      withoutSyncState: true,
    });
    try {
      expect((await sandbox.get('/sync/cursors')).body).toEqual({ items: [] });
    } finally {
      await sandbox.close();
    }
  });

  it('healthz turns 503 when the catalog cannot be read any more', async () => {
    const file = buildCatalogDb({ products: [{ id: 1, canonical_product_id: 'p', parser_name: 'fixprice' }] });
    const sandbox = await startCatalogSandbox({ dbFile: file });
    try {
      expect((await call(sandbox.url, '/healthz')).status).toBe(200);
      const writer = openSqlite(file);
      writer.exec('DROP TABLE catalog_products');
      writer.close();
      const answer = await call(sandbox.url, '/healthz');
      expect(answer.status).toBe(503);
      expect(answer.body.detail).toMatch(/^catalog_unavailable: .*catalog_products/);
    } finally {
      await sandbox.close();
      rmSync(dirname(file), { recursive: true, force: true });
    }
  });

  it('a missing file, a file that is not SQLite, a SQLite file without catalog_products: CatalogDbError', async () => {
    const dir = tempDir();
    await expect(startCatalogSandbox({ dbFile: join(dir, 'missing.db') })).rejects.toBeInstanceOf(CatalogDbError);
    const text = join(dir, 'notes.db');
    writeFileSync(text, 'this is not a database, just some text that is long enough to have a header\n'.repeat(20));
    await expect(startCatalogSandbox({ dbFile: text })).rejects.toBeInstanceOf(CatalogDbError);
    const other = join(dir, 'other.db');
    const db = openSqlite(other);
    db.exec('CREATE TABLE t (x)');
    db.close();
    await expect(startCatalogSandbox({ dbFile: other })).rejects.toThrow(/catalog_products/);
    await expect(startCatalogSandbox({ dbFile: dir })).rejects.toBeInstanceOf(CatalogDbError);
    rmSync(dir, { recursive: true, force: true });
  });
});
