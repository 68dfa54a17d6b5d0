// Answers of the sandbox catalog never depend on the requests before them (its product-order cache must not
// confuse nan, inf and -inf), and the largest 64-bit offset is served and echoed exactly.
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCatalogSandbox, type CatalogSandbox } from '../../../src/sandbox/catalog/server.js';
import { buildCatalogDb, call, seededRandom, type CatalogFixture } from './fixture.js';

const FIXTURE: CatalogFixture = {
  settlements: [{ id: 1, name: 'Москва', region: 'Москва', region_normalized: 'москва' }],
  categories: [{ id: 10, parser_name: 'fixprice', source_uid: 'cat-milk', title: 'Молоко', depth: 0 }],
  products: [
    { id: 1, canonical_product_id: 'aaa', parser_name: 'fixprice', price: 100, discount_price: 90, settlement_id: 1 },
    { id: 2, canonical_product_id: 'aaa', parser_name: 'chizhik', price: 110, settlement_id: 1 },
    { id: 3, canonical_product_id: 'bbb', parser_name: 'perekrestok', price: 50 },
    { id: 4, canonical_product_id: 'ccc', parser_name: 'fixprice' },
  ],
  snapshots: [
    {
      id: 1,
      canonical_product_id: 'aaa',
      parser_name: 'fixprice',
      source_id: 'src-1',
      price: 100,
      observed_at: '2026-02-01T10:00:00+00:00',
    },
  ],
};

// Floats the service parses: nan, the infinities (several spellings), overflowing decimals, ordinary bounds.
const PRICE_BOUNDS = ['nan', 'NaN', 'inf', '-inf', 'infinity', '-Infinity', '1e309', '-1e309', '95', '100', '0'];
const REQUESTS = PRICE_BOUNDS.flatMap((bound) => [
  `/products?price_max=${bound}`,
  `/products?price_min=${bound}`,
  `/products?price_min=${bound}&sort=price_asc`,
]);
const MAX_OFFSET = '9223372036854775807';

let file: string;
let shared: CatalogSandbox;
beforeAll(async () => {
  file = buildCatalogDb(FIXTURE);
  shared = await startCatalogSandbox({ dbFile: file });
});
afterAll(async () => {
  await shared.close();
  rmSync(dirname(file), { recursive: true, force: true });
});

/** The answer of a sandbox that has seen no other request. */
async function freshAnswer(path: string): Promise<unknown> {
  const fresh = await startCatalogSandbox({ dbFile: file });
  try {
    return (await call(fresh.url, path)).body;
  } finally {
    await fresh.close();
  }
}

describe('catalog sandbox: no answer depends on an earlier request', () => {
  it('nan, inf and -inf are three different filters', async () => {
    const total = async (path: string) => ((await call(shared.url, path)).body as { meta: { total: number } }).meta.total;
    // NaN compares with nothing; inf lets every priced product through; -inf none.
    expect(await total('/products?price_max=nan')).toBe(0);
    expect(await total('/products?price_max=inf')).toBe(2);
    expect(await total('/products?price_max=-inf')).toBe(0);
    expect(await total('/products?price_max=nan')).toBe(0);
    expect(await total('/products?price_min=-inf')).toBe(2);
  });

  it('the same answers whatever order the requests come in', async () => {
    const expected = new Map<string, unknown>();
    for (const path of REQUESTS) expected.set(path, await freshAnswer(path));
    const { shuffle } = seededRandom(18);
    for (let round = 0; round < 5; round += 1) {
      for (const path of shuffle(REQUESTS)) {
        expect((await call(shared.url, path)).body, `${path} in round ${round}`).toEqual(expected.get(path));
      }
    }
  });
});

describe('catalog sandbox: the largest offset', () => {
  const raw = async (path: string) => {
    const response = await fetch(`${shared.url}${path}`);
    return { status: response.status, text: await response.text() };
  };

  it('lists answer 200 with no items and echo the offset digit for digit', async () => {
    for (const path of ['/categories', '/settlements', '/products/aaa/sources', '/products/aaa/snapshots', '/products']) {
      const answer = await raw(`${path}?offset=${MAX_OFFSET}`);
      expect(answer.status, path).toBe(200);
      expect(answer.text, path).toContain(`"items":[]`);
      expect(answer.text, path).toContain(`"offset":${MAX_OFFSET},`);
    }
  });

  it("one more is the service's 422 int_parsing_size", async () => {
    const answer = await call(shared.url, '/categories?offset=9223372036854775808');
    expect(answer.status).toBe(422);
    expect((answer.body as { detail: Array<{ type: string }> }).detail[0]!.type).toBe('int_parsing_size');
  });
});
