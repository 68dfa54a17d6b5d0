import { MockAgent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CatalogClient } from '../../../src/catalog/client.js';
import type { Page } from '../../../src/wire/catalog/answers.js';
import { PAGES_AHEAD, pages, rowsAllowed } from '../../../src/catalog/pages.js';
import { ExitCode, TridentError } from '../../../src/core/errors.js';
import { createHttpClient } from '../../../src/core/http/client.js';

const ORIGIN = 'http://catalog.test';

let agent: MockAgent;
let seen: string[];
let client: CatalogClient;

/** Answers every GET with `answer(path)`, recording the paths asked for. */
function serve(answer: (path: string) => { status: number; body: unknown }): void {
  agent
    .get(ORIGIN)
    .intercept({ path: () => true, method: 'GET' })
    .reply(({ path }) => {
      seen.push(path);
      const { status, body } = answer(path);
      return { statusCode: status, data: JSON.stringify(body), responseOptions: { headers: { 'content-type': 'application/json' } } };
    })
    .persist();
}

async function failure(promise: Promise<unknown>): Promise<TridentError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(TridentError);
  return error as TridentError;
}

beforeEach(() => {
  agent = new MockAgent();
  agent.disableNetConnect();
  seen = [];
  client = new CatalogClient(
    createHttpClient({ serviceName: 'catalog service', dispatcher: agent, retries: 0 }),
    new URL(`${ORIGIN}/api/`),
  );
});

afterEach(async () => {
  await agent.close();
});

describe('CatalogClient', () => {
  it('sends the service parameter names, leaving out what is not set', async () => {
    serve(() => ({ status: 200, body: { items: [], meta: { limit: 5, offset: 10, total: 0 } } }));
    await client.products({
      q: 'milk',
      parser_name: 'fixprice',
      category_id: 3,
      promo: true,
      price_max: 99.5,
      sort: 'price_asc',
      limit: 5,
      offset: 10,
    });
    await client.categories({ parser_name: 'chizhik', depth: 1, parent_source_uid: 'ch-1', q: 'bread' });
    await client.settlements({ country: 'Russia', region: 'Moscow', q: 'mos' });
    await client.snapshots('prod 1/x', { parser_name: 'fixprice', source_id: '42', limit: 1 });
    await client.sources('prod-1', { sort: 'observed_at_asc' });
    expect(seen).toEqual([
      '/api/products?q=milk&parser_name=fixprice&category_id=3&promo=true&price_max=99.5&sort=price_asc&limit=5&offset=10',
      '/api/categories?parser_name=chizhik&depth=1&parent_source_uid=ch-1&q=bread',
      '/api/settlements?country=Russia&region=Moscow&q=mos',
      '/api/products/prod%201%2Fx/snapshots?parser_name=fixprice&source_id=42&limit=1',
      '/api/products/prod-1/sources?sort=observed_at_asc',
    ]);
  });

  it('repeats --store and --region as query parameters and returns single answers as they came', async () => {
    const count = { products_count: 2, stores: ['fixprice', 'chizhik'], regions: null, extra: 'kept' };
    serve((path) => ({
      status: 200,
      body: path.startsWith('/api/products/count') ? count : { scope: 'stores', common_products_count: 1 },
    }));
    expect(await client.count({ store: ['FixPrice', 'chizhik'], region: ['moscow'] })).toEqual(count);
    await client.commonCount('regions', { region: ['moscow', 'spb'] });
    expect(seen).toEqual([
      '/api/products/count?store=FixPrice&store=chizhik&region=moscow',
      '/api/products/common/count?scope=regions&region=moscow&region=spb',
    ]);
  });

  it('asks for dynamics with every required parameter and checks the answer lines up', async () => {
    const answer = { dates: ['2026-02-01T00:00:00Z'], values: [90], meta: { field: 'price' } };
    serve((path) => ({ status: 200, body: path.includes('bad') ? { dates: ['x'], values: [] } : answer }));
    const query = {
      parser_name: 'fixprice',
      source_id: '1',
      field: 'price',
      date_from: '2026-02-01T00:00:00.000Z',
      date_to: '2026-02-01T00:00:00.000Z',
      interval: '1d',
    } as const;
    expect(await client.dynamics('p1', query)).toEqual(answer);
    expect(seen[0]).toBe(
      '/api/products/p1/dynamics?parser_name=fixprice&source_id=1&field=price&date_from=2026-02-01T00%3A00%3A00.000Z&date_to=2026-02-01T00%3A00%3A00.000Z&interval=1d',
    );
    const error = await failure(client.dynamics('bad', query));
    expect(error.exitCode).toBe(ExitCode.unavailable);
    expect(error.message).toBe(
      'catalog service answered GET /products/bad/dynamics with an unexpected shape: dates and values are not two lists of the same length',
    );
  });

  it('turns 404 into exit 5 with the detail, and a 422 list into readable lines', async () => {
    serve((path) =>
      path.includes('missing')
        ? { status: 404, body: { detail: 'product_not_found' } }
        : {
            status: 422,
            body: {
              detail: [
                { type: 'less_than_equal', loc: ['query', 'limit'], msg: 'Input should be less than or equal to 100', input: '500' },
                {
                  type: 'int_parsing',
                  loc: ['query', 'offset'],
                  msg: 'Input should be a valid integer, unable to parse string as an integer',
                  input: 'x',
                },
              ],
            },
          },
    );
    const notFound = await failure(client.product('missing'));
    expect(notFound.exitCode).toBe(ExitCode.notFound);
    expect(notFound.message).toBe('catalog service answered 404: product_not_found');
    const rejected = await failure(client.products());
    expect(rejected.exitCode).toBe(ExitCode.rejected);
    expect(rejected.message).toBe(
      'catalog service answered 422: query.limit: Input should be less than or equal to 100; query.offset: Input should be a valid integer, unable to parse string as an integer',
    );
  });

  it('refuses an answer that is not a list where a list was asked for', async () => {
    serve(() => ({ status: 200, body: { items: 'nope' } }));
    const error = await failure(client.settlements());
    expect(error.exitCode).toBe(ExitCode.unavailable);
    expect(error.message).toContain('GET /settlements with an unexpected shape');
    expect((await failure(client.cursors())).message).toContain('GET /sync/cursors with an unexpected shape: no items list');
  });
});

describe('pages', () => {
  function fakeList(total: number) {
    const calls: Array<[number, number]> = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const fetchPage = async (limit: number, offset: number): Promise<Page<{ n: number }>> => {
      calls.push([limit, offset]);
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 1));
      inFlight -= 1;
      const items = Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, i) => ({ n: offset + i }));
      return { items, meta: { limit, offset, total } };
    };
    return { calls, fetchPage, maxInFlight: () => maxInFlight };
  }

  it('follows every page from the offset on', async () => {
    const list = fakeList(7);
    const progress: Array<{ fetched: number; total: number }> = [];
    const rows: number[] = [];
    for await (const page of pages(list.fetchPage, { limit: 3, offset: 1 }, (p) => progress.push(p)))
      rows.push(...page.map((row) => row.n));
    expect(rows).toEqual([1, 2, 3, 4, 5, 6]);
    expect(list.calls).toEqual([
      [3, 1],
      [3, 4],
    ]);
    expect(list.maxInFlight()).toBe(1);
    expect(progress).toEqual([
      { fetched: 3, total: 6 },
      { fetched: 6, total: 6 },
    ]);
  });

  it(`keeps ${PAGES_AHEAD} pages asked for ahead, never more, and every row comes once in order`, async () => {
    const list = fakeList(1000);
    const rows: number[] = [];
    for await (const page of pages(list.fetchPage, { limit: 100, offset: 0 })) rows.push(...page.map((row) => row.n));
    expect(rows).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    expect(list.calls.map(([, offset]) => offset)).toEqual([0, 100, 200, 300, 400, 500, 600, 700, 800, 900]);
    expect(list.maxInFlight()).toBe(PAGES_AHEAD);
  });

  it('goes on from where a short page ended when the list changes under it', async () => {
    const calls: number[] = [];
    const fetchPage = async (limit: number, offset: number): Promise<Page<number>> => {
      calls.push(offset);
      // The page at offset 2 comes back short (rows changed meanwhile): paging must go on from where it ended.
      const count = offset === 2 ? 1 : Math.max(0, Math.min(limit, 6 - offset));
      return { items: Array.from({ length: count }, (_, i) => offset + i), meta: { limit, offset, total: 6 } };
    };
    const rows: number[] = [];
    for await (const page of pages(fetchPage, { limit: 2, offset: 0 })) rows.push(...page);
    expect(rows).toEqual([0, 1, 2, 3, 4, 5]);
    expect(calls.slice(0, 3)).toEqual([0, 2, 4]);
    expect(calls).toContain(3);
  });

  it('yields a page before the next page has arrived', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const fetchPage = async (limit: number, offset: number): Promise<Page<number>> => {
      if (offset > 0) await held;
      return { items: Array.from({ length: limit }, (_, i) => offset + i), meta: { limit, offset, total: 4 } };
    };
    const iterator = pages(fetchPage, { limit: 2, offset: 0 });
    expect((await iterator.next()).value).toEqual([0, 1]);
    release();
    const rest: number[] = [];
    for await (const page of iterator) rest.push(...page);
    expect(rest).toEqual([2, 3]);
  });

  /** Every row of a walk until it ends or fails, and the failure's message. */
  async function walk<T>(
    fetchPage: (limit: number, offset: number) => Promise<Page<T>>,
    limit: number,
  ): Promise<{ rows: T[]; error?: string }> {
    const rows: T[] = [];
    try {
      for await (const page of pages(fetchPage, { limit, offset: 0 })) rows.push(...page);
      return { rows };
    } catch (error) {
      return { rows, error: (error as Error).message };
    }
  }

  it('stops at a page that repeats the one before it, but not at one that only shares its first and last rows', async () => {
    const middles: Record<number, number> = { 0: 1, 3: 2, 6: 2 };
    expect(await walk(async (limit, offset) => ({ items: [0, middles[offset]!, 9], meta: { limit, offset, total: 12 } }), 3)).toEqual({
      rows: [0, 1, 9, 0, 2, 9],
      error:
        'stopped following the pages of the catalog service: the page at offset 6 is the same as the one at offset 3: the service seems to ignore offset',
    });
  });

  it('stops at a page seen any number of pages before (pages that go round in a circle), each row given once', async () => {
    const cycle = [
      [1, 2],
      [3, 4],
      [5, 6],
    ];
    expect(await walk(async (limit, offset) => ({ items: cycle[(offset / 2) % 3]!, meta: { limit, offset, total: 1e12 } }), 2)).toEqual({
      rows: [1, 2, 3, 4, 5, 6],
      error:
        "stopped following the pages of the catalog service: the page at offset 6 is the same as the one at offset 0: the service's pages go round in a circle",
    });
  });

  it('follows a list that grows by what rowsAllowed grants, and stops at the first page past that', async () => {
    expect(rowsAllowed(250, 100)).toBe(350);
    expect(rowsAllowed(5000, 100)).toBe(5500);
    // New rows on every page, and after the first a total far ahead: only the first total bounds the walk.
    const growing = (first: number) => async (limit: number, offset: number) => ({
      items: Array.from({ length: limit }, (_, i) => offset + i),
      meta: { limit, offset, total: offset === 0 ? first : 1e9 },
    });
    const [small, large] = [await walk(growing(100), 10), await walk(growing(1000), 10)];
    expect([small.rows.length, small.error]).toEqual([
      110,
      'stopped following the pages of the catalog service: its pages hold more rows than the 100 its first page said the list has (120 so far)',
    ]);
    expect([large.rows.length, large.error]).toEqual([
      1100,
      'stopped following the pages of the catalog service: its pages hold more rows than the 1000 its first page said the list has (1110 so far)',
    ]);
  });

  it('stops on an empty list, an empty page, and passes a failing page on', async () => {
    const empty = fakeList(0);
    const rows: unknown[] = [];
    for await (const page of pages(empty.fetchPage, { limit: 5, offset: 0 })) rows.push(...page);
    expect(rows).toEqual([]);
    expect(empty.calls).toEqual([[5, 0]]);

    const failing = async (limit: number, offset: number): Promise<Page<number>> => {
      if (offset > 0) throw new TridentError(ExitCode.unavailable, 'gone');
      return { items: [1, 2], meta: { limit, offset, total: 10 } };
    };
    const seenRows: number[] = [];
    await expect(
      (async () => {
        for await (const page of pages(failing, { limit: 2, offset: 0 })) seenRows.push(...page);
      })(),
    ).rejects.toThrow('gone');
    expect(seenRows).toEqual([1, 2]);
  });
});
