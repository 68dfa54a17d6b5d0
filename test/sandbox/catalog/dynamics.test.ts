// Dynamics of the sandbox catalog: the public service's worked examples, buckets worked out by hand for a
// source with intervals, points, ties and mixed timestamp spellings, and the order of checks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture, type CatalogFixture } from './fixture.js';

const WORKED: CatalogFixture = {
  settlements: [{ id: 1, name: 'Moscow', region: 'Moscow', region_normalized: 'moscow' }],
  products: [
    { id: 1, canonical_product_id: 'prod-1', parser_name: 'fixprice', source_id: 'receiver:run-1:1', settlement_id: 1 },
    { id: 2, canonical_product_id: 'prod-1', parser_name: 'chizhik', source_id: 'receiver:run-2:1', settlement_id: 1 },
    { id: 3, canonical_product_id: 'prod-2', parser_name: 'fixprice', source_id: 'receiver:run-3:1', settlement_id: 1 },
  ],
  snapshots: [
    point(101, 'prod-1', 'fixprice', 'receiver:run-1:1', '2026-02-01T10:00:00+00:00', 100),
    point(102, 'prod-1', 'fixprice', 'receiver:run-1:1', '2026-02-01T15:00:00+00:00', 90),
    point(103, 'prod-1', 'fixprice', 'receiver:run-1:1', '2026-02-03T09:00:00+00:00', 80),
  ],
};

/** As the converter writes a new snapshot: valid_from_at = valid_to_at = observed_at. */
function point(id: number, product: string, parser: string, source: string, at: string, price: number) {
  return {
    id,
    canonical_product_id: product,
    parser_name: parser,
    source_id: source,
    price,
    observed_at: at,
    valid_from_at: at,
    valid_to_at: at,
  };
}

// One source, by hand (all times 2026-03-01, UTC):
//   s1 observed 10:00, valid 10:00–12:00, price 50, discount null
//   s2 observed 11:30 (point, no validity columns), price 60, discount 56
//   s3 observed 11:30 spelled with Z (same instant as s2, higher id), price 61, discount 55
//   s4 observed 16:00+03:00 = 13:00Z with a space for T, valid 13:00–14:30Z written in +03:00, price 70
//   s5 observed 09:00, valid 08:00–18:00, price 40, discount 35
const TRICKY: CatalogFixture = {
  products: [{ id: 1, canonical_product_id: 'prod-d', parser_name: 'fixprice', source_id: 'd-1' }],
  snapshots: [
    {
      id: 1,
      canonical_product_id: 'prod-d',
      parser_name: 'fixprice',
      source_id: 'd-1',
      price: 50,
      discount_price: null,
      observed_at: '2026-03-01T10:00:00+00:00',
      valid_from_at: '2026-03-01T10:00:00+00:00',
      valid_to_at: '2026-03-01T12:00:00+00:00',
    },
    {
      id: 2,
      canonical_product_id: 'prod-d',
      parser_name: 'fixprice',
      source_id: 'd-1',
      price: 60,
      discount_price: 56,
      observed_at: '2026-03-01T11:30:00+00:00',
    },
    {
      id: 3,
      canonical_product_id: 'prod-d',
      parser_name: 'fixprice',
      source_id: 'd-1',
      price: 61,
      discount_price: 55,
      observed_at: '2026-03-01T11:30:00Z',
    },
    {
      id: 4,
      canonical_product_id: 'prod-d',
      parser_name: 'fixprice',
      source_id: 'd-1',
      price: 70,
      discount_price: null,
      observed_at: '2026-03-01 16:00:00+03:00',
      valid_from_at: '2026-03-01T16:00:00+03:00',
      valid_to_at: '2026-03-01T17:30:00+03:00',
    },
    {
      id: 5,
      canonical_product_id: 'prod-d',
      parser_name: 'fixprice',
      source_id: 'd-1',
      price: 40,
      discount_price: 35,
      observed_at: '2026-03-01T09:00:00+00:00',
      valid_from_at: '2026-03-01T08:00:00+00:00',
      valid_to_at: '2026-03-01T18:00:00+00:00',
    },
    { id: 6, canonical_product_id: 'prod-d', parser_name: 'chizhik', source_id: 'd-2', price: 1, observed_at: '2026-03-01T12:00:00+00:00' },
  ],
};

function query(params: Record<string, string>): string {
  return new URLSearchParams(params).toString();
}

describe('catalog sandbox: dynamics, the worked examples', () => {
  let sandbox: Awaited<ReturnType<typeof startFixture>>;
  beforeAll(async () => {
    sandbox = await startFixture(WORKED);
  });
  afterAll(() => sandbox.close());

  it('daily series: the later observation wins the day, an empty day is null', async () => {
    const answer = await sandbox.get(
      `/products/prod-1/dynamics?${query({ parser_name: 'fixprice', source_id: 'receiver:run-1:1', field: 'price', interval: '1d', date_from: '2026-02-01T00:00:00Z', date_to: '2026-02-03T23:59:59Z' })}`,
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      dates: ['2026-02-01T00:00:00Z', '2026-02-02T00:00:00Z', '2026-02-03T00:00:00Z'],
      values: [90, null, 80],
      meta: {
        canonical_product_id: 'prod-1',
        parser_name: 'fixprice',
        source_id: 'receiver:run-1:1',
        field: 'price',
        interval: '1d',
        date_from: '2026-02-01T00:00:00Z',
        date_to: '2026-02-03T23:59:59Z',
      },
    });
  });

  it('6h series anchored at date_from converted to UTC', async () => {
    const answer = await sandbox.get(
      `/products/prod-1/dynamics?${query({ parser_name: 'fixprice', source_id: 'receiver:run-1:1', field: 'price', interval: '6h', date_from: '2026-02-01T03:00:00+03:00', date_to: '2026-02-01T20:00:00Z' })}`,
    );
    expect(answer.status).toBe(200);
    expect(answer.body.dates).toEqual(['2026-02-01T00:00:00Z', '2026-02-01T06:00:00Z', '2026-02-01T12:00:00Z', '2026-02-01T18:00:00Z']);
    expect(answer.body.values).toEqual([null, 100, 90, null]);
    expect(answer.body.meta.date_from).toBe('2026-02-01T00:00:00Z');
    expect(answer.body.meta.date_to).toBe('2026-02-01T20:00:00Z');
  });
});

describe('catalog sandbox: dynamics buckets', () => {
  let sandbox: Awaited<ReturnType<typeof startFixture>>;
  beforeAll(async () => {
    sandbox = await startFixture(TRICKY);
  });
  afterAll(() => sandbox.close());

  const series = (params: Record<string, string>) =>
    sandbox.get(
      `/products/prod-d/dynamics?${query({ parser_name: 'fixprice', source_id: 'd-1', field: 'price', interval: '1h', ...params })}`,
    );

  it('intervals fill every bucket they touch, points one; latest observed_at wins, ties go to the higher id', async () => {
    // Given in +03:00: 11:00+03:00 = 08:00Z .. 22:00+03:00 = 19:00Z, twelve hourly buckets.
    const answer = await series({ date_from: '2026-03-01T11:00:00+03:00', date_to: '2026-03-01T22:00:00+03:00' });
    expect(answer.status).toBe(200);
    expect(answer.body.dates).toEqual([
      '2026-03-01T08:00:00Z',
      '2026-03-01T09:00:00Z',
      '2026-03-01T10:00:00Z',
      '2026-03-01T11:00:00Z',
      '2026-03-01T12:00:00Z',
      '2026-03-01T13:00:00Z',
      '2026-03-01T14:00:00Z',
      '2026-03-01T15:00:00Z',
      '2026-03-01T16:00:00Z',
      '2026-03-01T17:00:00Z',
      '2026-03-01T18:00:00Z',
      '2026-03-01T19:00:00Z',
    ]);
    // 08,09: s5 only. 10: s1 (observed 10:00) beats s5. 11: s2/s3 at 11:30 beat s1; same instant, s3 has the
    // higher id. 12: s1 ends exactly at 12:00, touching that bucket. 13,14: s4. 15–18: s5 again (it ends at
    // 18:00). 19: nothing, and no forward fill.
    expect(answer.body.values).toEqual([40, 40, 50, 61, 50, 70, 70, 40, 40, 40, 40, null]);
    expect(answer.body.meta.date_from).toBe('2026-03-01T08:00:00Z');
    expect(answer.body.meta.date_to).toBe('2026-03-01T19:00:00Z');
  });

  it('a winning snapshot with a null field gives null, not a weaker snapshot value', async () => {
    const answer = await series({ field: 'discount_price', date_from: '2026-03-01T08:00:00Z', date_to: '2026-03-01T19:00:00Z' });
    expect(answer.body.values).toEqual([35, 35, null, 55, null, null, null, 35, 35, 35, 35, null]);
  });

  it('buckets are anchored at date_from, not at calendar hours, and clipped at date_to', async () => {
    // [10:30,11:30): s1 beats s5 → 50; [11:30,12:30): s3 → 61; the last bucket only reaches 12:30, where s5
    // still holds and s4 (from 13:00) does not reach.
    const answer = await series({ date_from: '2026-03-01T10:30:00Z', date_to: '2026-03-01T12:30:00Z' });
    expect(answer.body.dates).toEqual(['2026-03-01T10:30:00Z', '2026-03-01T11:30:00Z', '2026-03-01T12:30:00Z']);
    expect(answer.body.values).toEqual([50, 61, 40]);
  });

  it('equal dates make one point', async () => {
    const answer = await series({ date_from: '2026-03-01T11:30:00Z', date_to: '2026-03-01T14:30:00+03:00' });
    expect(answer.body).toMatchObject({ dates: ['2026-03-01T11:30:00Z'], values: [61] });
  });

  it('one long interval across daily buckets, microseconds kept in the dates', async () => {
    const answer = await series({ interval: '1d', date_from: '2026-02-28T12:00:00.250000Z', date_to: '2026-03-02T12:00:00Z' });
    expect(answer.body.dates).toEqual(['2026-02-28T12:00:00.250000Z', '2026-03-01T12:00:00.250000Z']);
    // Bucket 0 runs to 03-01 12:00:00.25 and holds everything up to then: s3 at 11:30 is the latest there.
    // Bucket 1 holds s4 (13:00) and the end of s5: s4 is later.
    expect(answer.body.values).toEqual([61, 70]);
  });

  it('20000 points are served, 20001 are refused', async () => {
    const ok = await series({ date_from: '2024-01-01T00:00:00Z', date_to: '2026-04-13T07:00:00Z' });
    expect(ok.status).toBe(200);
    expect(ok.body.dates).toHaveLength(20000);
    expect(ok.body.dates[19999]).toBe('2026-04-13T07:00:00Z');
    const tooMany = await series({ date_from: '2024-01-01T00:00:00Z', date_to: '2026-04-13T08:00:00Z' });
    expect(tooMany).toMatchObject({ status: 400, body: { detail: 'requested range is too large' } });
  });
});

describe('catalog sandbox: dynamics checks, in FastAPI order', () => {
  let sandbox: Awaited<ReturnType<typeof startFixture>>;
  beforeAll(async () => {
    sandbox = await startFixture(TRICKY);
  });
  afterAll(() => sandbox.close());

  const good = {
    parser_name: 'fixprice',
    source_id: 'd-1',
    field: 'price',
    interval: '1h',
    date_from: '2026-03-01T08:00:00Z',
    date_to: '2026-03-01T10:00:00Z',
  };
  const ask = (params: Record<string, string>, product = 'prod-d') => sandbox.get(`/products/${product}/dynamics?${query(params)}`);

  it('missing parameters: 422 listing every one, in declaration order', async () => {
    const answer = await ask({});
    expect(answer.status).toBe(422);
    expect(answer.body.detail).toEqual(
      ['parser_name', 'source_id', 'field', 'date_from', 'date_to', 'interval'].map((name) => ({
        type: 'missing',
        loc: ['query', name],
        msg: 'Field required',
        input: null,
      })),
    );
  });

  it('empty parameters are too short (422), even when other checks would fail too', async () => {
    const answer = await ask({ ...good, field: '', date_from: 'garbage' });
    expect(answer.status).toBe(422);
    expect(answer.body.detail).toEqual([
      {
        type: 'string_too_short',
        loc: ['query', 'field'],
        msg: 'String should have at least 1 character',
        input: '',
        ctx: { min_length: 1 },
      },
    ]);
  });

  it('dates: invalid, without offset, blank, reversed — 422 with a message, before the 400s', async () => {
    expect(await ask({ ...good, field: 'nope', date_from: '2026-13-01T00:00:00Z' })).toMatchObject({
      status: 422,
      body: { detail: 'datetime must be valid ISO8601' },
    });
    expect(await ask({ ...good, date_to: 'yesterday' })).toMatchObject({ status: 422, body: { detail: 'datetime must be valid ISO8601' } });
    expect(await ask({ ...good, date_from: '2026-03-01T08:00:00' })).toMatchObject({
      status: 422,
      body: { detail: 'datetime must include timezone' },
    });
    expect(await ask({ ...good, date_from: '2026-03-01' })).toMatchObject({
      status: 422,
      body: { detail: 'datetime must include timezone' },
    });
    expect(await ask({ ...good, date_from: '   ' })).toMatchObject({ status: 422, body: { detail: 'datetime value must be non-empty' } });
    expect(await ask({ ...good, interval: '12h', date_from: '2026-03-01T10:00:01Z' })).toMatchObject({
      status: 422,
      body: { detail: 'date_from must be <= date_to' },
    });
  });

  it('then field, then interval (400), then the size of the range (400), then the source (404)', async () => {
    expect(await ask({ ...good, field: 'rating', interval: '12h' })).toMatchObject({
      status: 400,
      body: { detail: 'unsupported field: rating' },
    });
    expect(await ask({ ...good, interval: '12h' })).toMatchObject({ status: 400, body: { detail: 'unsupported interval: 12h' } });
    expect(await ask({ ...good, source_id: 'nope', date_from: '2020-01-01T00:00:00Z' })).toMatchObject({
      status: 400,
      body: { detail: 'requested range is too large' },
    });
    expect(await ask({ ...good, source_id: 'nope' })).toMatchObject({ status: 404, body: { detail: 'source not found' } });
    expect(await ask({ ...good, parser_name: 'chizhik' })).toMatchObject({ status: 404, body: { detail: 'source not found' } });
    expect(await ask(good, 'no-such-product')).toMatchObject({ status: 404, body: { detail: 'source not found' } });
  });

  it('every dynamics field is served as numbers', async () => {
    for (const field of ['price', 'discount_price', 'loyal_price', 'available_count']) {
      const answer = await ask({ ...good, field });
      expect(answer.status).toBe(200);
      expect(answer.body.values).toHaveLength(3);
    }
  });
});
