// Products, counts, sources and snapshots of the sandbox catalog, against a fixture worked out by hand.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAND_MADE_CATALOG as FIXTURE, startFixture } from './fixture.js';

const ITEM_AAA = {
  canonical_product_id: 'aaa',
  title: 'Milk Fix Zelenograd',
  brand: null,
  price_from: 80,
  price_unit: 'RUB',
  sources_count: 3,
  observed_at_latest: '2026-02-04T09:00:00Z',
  image_url: 'https://img.example/3-0.webp',
  parsers: ['fixprice', 'chizhik'],
};
const ITEM_BBB = {
  canonical_product_id: 'bbb',
  title: 'Кефир Простоквашино 1%',
  brand: 'Простоквашино',
  price_from: null,
  price_unit: 'RUB',
  sources_count: 1,
  observed_at_latest: '2026-02-06T00:00:00Z',
  image_url: null,
  parsers: ['perekrestok'],
};
const ITEM_CCC = {
  canonical_product_id: 'ccc',
  title: 'Сок яблочный',
  brand: 'Добрый',
  price_from: 40,
  price_unit: 'RUB',
  sources_count: 2,
  observed_at_latest: '2026-02-02T00:00:00Z',
  image_url: null,
  parsers: ['fixprice', 'perekrestok'],
};
const ITEM_DDD = {
  canonical_product_id: 'ddd',
  title: 'Шоколад молочный',
  brand: 'Alpen Gold',
  price_from: 50,
  price_unit: 'RUB',
  sources_count: 3,
  observed_at_latest: '2026-02-06T00:00:00Z',
  // The representative row (id7) has only a sort_order 1 image.
  image_url: null,
  parsers: ['chizhik', 'fixprice', 'perekrestok'],
};

let sandbox: Awaited<ReturnType<typeof startFixture>>;
beforeAll(async () => {
  sandbox = await startFixture(FIXTURE);
});
afterAll(() => sandbox.close());

const ids = (body: { items: Array<{ canonical_product_id: string }> }) => body.items.map((item) => item.canonical_product_id);

describe('GET /products', () => {
  it('groups filtered rows by product: counts, lowest price, representative row, image, parsers', async () => {
    const answer = await sandbox.get('/products');
    expect(answer.status).toBe(200);
    // observed_at_desc: bbb and ddd share 02-06 (tie by id), then aaa, then ccc.
    expect(answer.body).toEqual({ items: [ITEM_BBB, ITEM_DDD, ITEM_AAA, ITEM_CCC], meta: { limit: 20, offset: 0, total: 4 } });
  });

  it('sorts with ties by canonical id and nulls last', async () => {
    expect(ids((await sandbox.get('/products?sort=observed_at_asc')).body)).toEqual(['ccc', 'aaa', 'bbb', 'ddd']);
    expect(ids((await sandbox.get('/products?sort=price_asc')).body)).toEqual(['ccc', 'ddd', 'aaa', 'bbb']);
    expect(ids((await sandbox.get('/products?sort=price_desc')).body)).toEqual(['aaa', 'ddd', 'ccc', 'bbb']);
    // The representative row's rating: ddd 4.5 (id7), aaa 4.0 (id3), ccc 3.0 (id5, not id6's 5.0), bbb none.
    expect(ids((await sandbox.get('/products?sort=rating_desc')).body)).toEqual(['ddd', 'aaa', 'ccc', 'bbb']);
  });

  it('pages with limit and offset; meta.total counts products, not rows', async () => {
    expect((await sandbox.get('/products?limit=2&offset=1')).body).toEqual({
      items: [ITEM_DDD, ITEM_AAA],
      meta: { limit: 2, offset: 1, total: 4 },
    });
    expect((await sandbox.get('/products?offset=10')).body).toEqual({ items: [], meta: { limit: 20, offset: 10, total: 4 } });
    // A repeated scalar parameter: the last one counts.
    expect((await sandbox.get('/products?limit=3&limit=1')).body.meta.limit).toBe(1);
  });

  it('filters rows before grouping', async () => {
    const fixprice = await sandbox.get('/products?parser_name=fixprice');
    expect(fixprice.body.meta.total).toBe(3);
    expect(
      fixprice.body.items.map((item: typeof ITEM_AAA) => [item.canonical_product_id, item.sources_count, item.price_from, item.title]),
    ).toEqual([
      ['ddd', 1, 55, 'Шоколад'],
      ['aaa', 1, 90, 'Milk 1L'],
      ['ccc', 1, 50, 'Сок яблочный'],
    ]);
    expect(ids((await sandbox.get('/products?q=%D0%BA%D0%B5%D1%84%D0%B8%D1%80')).body)).toEqual(['bbb']); // "кефир"
    expect(ids((await sandbox.get('/products?q=MILK')).body)).toEqual(['aaa']);
    expect(ids((await sandbox.get('/products?q=alpen')).body)).toEqual(['ddd']);
    expect(ids((await sandbox.get(`/products?brand=${encodeURIComponent(' ПРОСТОКВАШИНО ')}`)).body)).toEqual(['bbb']);
    expect((await sandbox.get('/products?promo=yes')).body.items).toEqual([
      {
        ...ITEM_AAA,
        title: 'Milk 1L',
        brand: 'Brand A',
        price_from: 90,
        sources_count: 1,
        observed_at_latest: '2026-02-03T09:00:00Z',
        image_url: 'https://img.example/1-0.webp',
        parsers: ['fixprice'],
      },
    ]);
    expect(ids((await sandbox.get('/products?hit=on')).body)).toEqual(['bbb']);
    expect(ids((await sandbox.get('/products?price_min=45&price_max=60')).body)).toEqual(['ddd', 'ccc']);
    expect(ids((await sandbox.get('/products?settlement_id=1')).body)).toEqual(['ddd', 'aaa', 'ccc']);
    expect(ids((await sandbox.get('/products?category_id=10')).body)).toEqual(['aaa']);
    expect(ids((await sandbox.get('/products?q=')).body)).toEqual(['bbb', 'ddd', 'aaa', 'ccc']);
  });

  it('422 for bad parameters, all of them, before the 400 of an unknown sort', async () => {
    const answer = await sandbox.get('/products?limit=0&offset=-1&promo=maybe&price_min=cheap&category_id=1.5&sort=bogus');
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual({
      detail: [
        {
          type: 'greater_than_equal',
          loc: ['query', 'limit'],
          msg: 'Input should be greater than or equal to 1',
          input: '0',
          ctx: { ge: 1 },
        },
        {
          type: 'greater_than_equal',
          loc: ['query', 'offset'],
          msg: 'Input should be greater than or equal to 0',
          input: '-1',
          ctx: { ge: 0 },
        },
        {
          type: 'int_parsing',
          loc: ['query', 'category_id'],
          msg: 'Input should be a valid integer, unable to parse string as an integer',
          input: '1.5',
        },
        {
          type: 'bool_parsing',
          loc: ['query', 'promo'],
          msg: 'Input should be a valid boolean, unable to interpret input',
          input: 'maybe',
        },
        {
          type: 'float_parsing',
          loc: ['query', 'price_min'],
          msg: 'Input should be a valid number, unable to parse string as a number',
          input: 'cheap',
        },
      ],
    });
    expect((await sandbox.get('/products?limit=101')).body.detail).toEqual([
      {
        type: 'less_than_equal',
        loc: ['query', 'limit'],
        msg: 'Input should be less than or equal to 100',
        input: '101',
        ctx: { le: 100 },
      },
    ]);
    expect((await sandbox.get('/products?limit=abc')).body.detail[0]).toMatchObject({ type: 'int_parsing', input: 'abc' });
    expect((await sandbox.get('/products?limit=100&offset=0')).status).toBe(200);
    expect((await sandbox.get('/products?limit=%2B5.0')).body.meta.limit).toBe(5); // pydantic reads "+5.0" as 5
    expect(await sandbox.get('/products?sort=bogus')).toMatchObject({ status: 400, body: { detail: 'unsupported sort: bogus' } });
  });

  it('boolean words of pydantic', async () => {
    for (const word of ['true', 'TRUE', '1', 'yes', 'on', 'y', 't'])
      expect(ids((await sandbox.get(`/products?promo=${word}`)).body)).toEqual(['aaa']);
    // promo 0: rows id2 and id3, both of aaa.
    for (const word of ['false', 'False', '0', 'no', 'off', 'n', 'f'])
      expect((await sandbox.get(`/products?promo=${word}`)).body.items).toMatchObject([{ canonical_product_id: 'aaa', sources_count: 2 }]);
    expect((await sandbox.get('/products?promo=%20true')).status).toBe(422);
  });
});

describe('GET /products/{id}', () => {
  it('is the list item of one product, or 404 product_not_found', async () => {
    expect(await sandbox.get('/products/aaa')).toMatchObject({ status: 200, body: ITEM_AAA });
    expect(await sandbox.get('/products/zzz')).toMatchObject({ status: 404, body: { detail: 'product_not_found' } });
    expect(await sandbox.get('/products/history-only')).toMatchObject({ status: 404, body: { detail: 'product_not_found' } });
    // Not a route of its own: the product called "common".
    expect(await sandbox.get('/products/common')).toMatchObject({ status: 404, body: { detail: 'product_not_found' } });
  });

  // The service's GROUP_CONCAT(DISTINCT parser_name) follows the rows as its query scans them: by id over the
  // whole table, in the order of the index a filter is served by otherwise. Every list below is what
  // Python 3.11's sqlite3 answers for the service's query on this very fixture file.
  it("lists parsers in the order the service's own query gives on this database, not by id", async () => {
    expect((await sandbox.get('/products/ddd')).body.parsers).toEqual(['fixprice', 'perekrestok', 'chizhik']);
    expect((await sandbox.get('/products/aaa')).body.parsers).toEqual(['fixprice', 'chizhik']);
    const unfiltered = (await sandbox.get('/products?sort=price_asc')).body.items as Array<{
      canonical_product_id: string;
      parsers: string[];
    }>;
    expect(unfiltered.find((item) => item.canonical_product_id === 'ddd')!.parsers).toEqual(['chizhik', 'fixprice', 'perekrestok']);
  });
});

describe('GET /products/count', () => {
  it('counts distinct products, with stores and regions normalized and echoed', async () => {
    expect((await sandbox.get('/products/count')).body).toEqual({ products_count: 4, stores: null, regions: null });
    expect((await sandbox.get('/products/count?store=FixPrice&store=%20fixprice%20&store=chizhik&store=')).body).toEqual({
      products_count: 3,
      stores: ['fixprice', 'chizhik'],
      regions: null,
    });
    expect((await sandbox.get('/products/count?region=Moscow')).body).toEqual({ products_count: 3, stores: null, regions: ['moscow'] });
    expect((await sandbox.get('/products/count?region=novosibirsk%20oblast')).body.products_count).toBe(1);
    expect((await sandbox.get('/products/count?region=tatarstan')).body.products_count).toBe(0);
    expect((await sandbox.get('/products/count?store=chizhik&region=spb')).body).toEqual({
      products_count: 1,
      stores: ['chizhik'],
      regions: ['spb'],
    });
    expect((await sandbox.get('/products/count?store=nowhere')).body.products_count).toBe(0);
  });
});

describe('GET /products/common/count', () => {
  const common = async (q: string) => (await sandbox.get(`/products/common/count?${q}`)).body;

  it('scope=stores: products in every store of the data, or of the stores given', async () => {
    expect(await common('scope=stores')).toEqual({
      scope: 'stores',
      common_products_count: 1,
      required_stores: 3,
      required_regions: null,
      stores: null,
      regions: null,
    });
    expect(await common('scope=Stores&store=FIXPRICE&store=chizhik')).toEqual({
      scope: 'stores',
      common_products_count: 2,
      required_stores: 2,
      required_regions: null,
      stores: ['fixprice', 'chizhik'],
      regions: null,
    });
    // In moscow only fixprice (aaa, ccc) and perekrestok (ddd) sell: two stores required, nobody has both.
    expect(await common('scope=stores&region=moscow')).toMatchObject({ common_products_count: 0, required_stores: 2, regions: ['moscow'] });
    expect(await common('scope=stores&store=fixprice&store=magnit')).toMatchObject({ common_products_count: 0, required_stores: 2 });
  });

  it('scope=regions: settlements with a non-empty region; a requested region without data still counts', async () => {
    expect(await common('scope=regions')).toEqual({
      scope: 'regions',
      common_products_count: 0,
      required_stores: null,
      required_regions: 3,
      stores: null,
      regions: null,
    });
    expect(await common('scope=regions&region=moscow&region=SPB')).toMatchObject({
      common_products_count: 2,
      required_regions: 2,
      regions: ['moscow', 'spb'],
    });
    expect(await common('scope=regions&region=moscow&region=spb&region=tatarstan')).toMatchObject({
      common_products_count: 0,
      required_regions: 3,
    });
    expect(await common('scope=regions&region=moscow&region=spb&store=fixprice&store=chizhik')).toEqual({
      scope: 'regions',
      common_products_count: 1,
      required_stores: null,
      required_regions: 2,
      stores: ['fixprice', 'chizhik'],
      regions: ['moscow', 'spb'],
    });
  });

  it('400 without a valid scope', async () => {
    expect(await sandbox.get('/products/common/count')).toMatchObject({
      status: 400,
      body: { detail: 'scope must be one of: stores, regions' },
    });
    expect(await sandbox.get('/products/common/count?scope=all')).toMatchObject({
      status: 400,
      body: { detail: 'scope must be one of: stores, regions' },
    });
  });
});

describe('GET /products/{id}/sources and /snapshots', () => {
  it('sources: full rows with images, category and settlement, newest first, ties by id', async () => {
    const answer = await sandbox.get('/products/aaa/sources');
    expect(answer.status).toBe(200);
    expect(answer.body.meta).toEqual({ limit: 20, offset: 0, total: 3 });
    expect(answer.body.items.map((item: { id: number }) => item.id)).toEqual([2, 3, 1]);
    const [second, third, first] = answer.body.items;
    expect(first).toEqual({
      id: 1,
      canonical_product_id: 'aaa',
      parser_name: 'fixprice',
      source_id: 'src-1',
      plu: null,
      sku: null,
      title_original: 'Milk 1L',
      title_normalized_no_stopwords: 'milk 1l',
      brand: 'Brand A',
      price: 100,
      discount_price: 90,
      loyal_price: null,
      price_unit: 'RUB',
      rating: 4.5,
      reviews_count: null,
      promo: true,
      is_new: null,
      hit: null,
      adult: null,
      unit: 'PCE',
      available_count: null,
      package_quantity: null,
      package_unit: null,
      composition_original: null,
      composition_normalized: null,
      observed_at: '2026-02-03T09:00:00Z',
      image_urls: ['https://img.example/1-0.webp'],
      primary_category: { id: 10, source_uid: 'cat-milk', title: 'Молоко' },
      settlement: { id: 1, name: 'Moscow', region: 'Moscow', country: 'RUS' },
    });
    expect(second).toMatchObject({
      brand: null,
      promo: false,
      observed_at: '2026-02-04T09:00:00Z',
      image_urls: [],
      primary_category: null,
    });
    expect(third).toMatchObject({
      parser_name: 'FixPrice',
      observed_at: '2026-02-04T09:00:00Z',
      image_urls: ['https://img.example/3-0.webp', 'https://img.example/3-1.webp'],
    });
    expect(ids((await sandbox.get('/products/ddd/sources?sort=observed_at_asc&limit=2')).body)).toEqual(['ddd', 'ddd']);
    expect((await sandbox.get('/products/ddd/sources?sort=observed_at_asc')).body.items.map((item: { id: number }) => item.id)).toEqual([
      8, 9, 7,
    ]);
    expect((await sandbox.get('/products/ddd/sources')).body.items[0].settlement).toBeNull();
  });

  it('sources: 400 for an unknown sort, 404 only when the product exists nowhere', async () => {
    expect(await sandbox.get('/products/aaa/sources?sort=price_asc')).toMatchObject({
      status: 400,
      body: { detail: 'unsupported sort: price_asc' },
    });
    expect(await sandbox.get('/products/zzz/sources')).toMatchObject({ status: 404, body: { detail: 'product_not_found' } });
    expect(await sandbox.get('/products/history-only/sources')).toMatchObject({
      status: 200,
      body: { items: [], meta: { limit: 20, offset: 0, total: 0 } },
    });
    expect((await sandbox.get('/products/aaa/sources?limit=0')).status).toBe(422);
  });

  it('snapshots: rows newest first, filters, validity in UTC', async () => {
    const answer = await sandbox.get('/products/aaa/snapshots');
    expect(answer.body.meta.total).toBe(3);
    expect(answer.body.items.map((item: { id: number }) => item.id)).toEqual([3, 2, 1]);
    expect(answer.body.items[2]).toEqual({
      id: 1,
      canonical_product_id: 'aaa',
      parser_name: 'fixprice',
      source_id: 'src-1',
      source_run_id: null,
      receiver_product_id: null,
      receiver_artifact_id: null,
      receiver_sort_order: null,
      source_event_uid: 'evt-1',
      content_fingerprint: null,
      price: 100,
      discount_price: null,
      loyal_price: null,
      price_unit: null,
      available_count: null,
      valid_from_at: '2026-02-01T10:00:00Z',
      valid_to_at: '2026-02-02T10:00:00Z',
      observed_at: '2026-02-01T10:00:00Z',
      created_at: '2026-02-01T10:00:00Z',
    });
    expect(answer.body.items[1]).toMatchObject({ valid_from_at: null, valid_to_at: null });
    expect((await sandbox.get('/products/aaa/snapshots?sort=observed_at_asc')).body.items.map((item: { id: number }) => item.id)).toEqual([
      1, 2, 3,
    ]);
    expect((await sandbox.get('/products/aaa/snapshots?parser_name=chizhik')).body.items).toMatchObject([{ id: 3, available_count: 7 }]);
    expect((await sandbox.get('/products/aaa/snapshots?source_id=src-1&limit=1&offset=1')).body).toMatchObject({
      items: [{ id: 1 }],
      meta: { limit: 1, offset: 1, total: 2 },
    });
    expect(await sandbox.get('/products/aaa/snapshots?parser_name=magnit')).toMatchObject({
      status: 200,
      body: { items: [], meta: { total: 0 } },
    });
    expect(await sandbox.get('/products/zzz/snapshots')).toMatchObject({ status: 404, body: { detail: 'product_not_found' } });
    expect(await sandbox.get('/products/aaa/snapshots?sort=newest')).toMatchObject({
      status: 400,
      body: { detail: 'unsupported sort: newest' },
    });
  });
});
