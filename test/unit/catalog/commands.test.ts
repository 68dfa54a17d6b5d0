import { afterEach, describe, expect, it } from 'vitest';
import * as categories from '../../../src/catalog/commands/categories.js';
import * as category from '../../../src/catalog/commands/category.js';
import * as commonCount from '../../../src/catalog/commands/common-count.js';
import * as count from '../../../src/catalog/commands/count.js';
import * as cursors from '../../../src/catalog/commands/cursors.js';
import * as dynamics from '../../../src/catalog/commands/dynamics.js';
import * as product from '../../../src/catalog/commands/product.js';
import * as settlements from '../../../src/catalog/commands/settlements.js';
import * as products from '../../../src/catalog/commands/products.js';
import * as settlement from '../../../src/catalog/commands/settlement.js';
import * as snapshots from '../../../src/catalog/commands/snapshots.js';
import { fakeCatalog, usageRejection as usageError, type FakeCatalog, type FakeCatalogOptions } from './helpers.js';

let fake: FakeCatalog | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

function setup(options: FakeCatalogOptions = {}): FakeCatalog {
  fake = fakeCatalog(options);
  return fake;
}

const DYNAMICS: dynamics.DynamicsOptions = {
  store: 'fixprice',
  sourceId: '42',
  field: 'price',
  interval: '1d',
  from: '2026-02-01T00:00:00Z',
  to: '2026-02-03T23:59:59Z',
};
const SERIES = {
  dates: ['2026-02-01T00:00:00Z', '2026-02-02T00:00:00Z', '2026-02-03T00:00:00Z'],
  values: [90, null, 80],
  meta: {
    canonical_product_id: 'p1',
    parser_name: 'fixprice',
    source_id: '42',
    field: 'price',
    interval: '1d',
    date_from: '2026-02-01T00:00:00Z',
    date_to: '2026-02-03T23:59:59Z',
  },
};

describe('client-side rejections send nothing', () => {
  const cases: Array<[string, (f: FakeCatalog) => Promise<unknown>, string | RegExp]> = [
    ['--limit 0', (f) => products.run(f.ctx, { limit: '0' }), 'invalid --limit "0": expected a whole number from 1 to 100'],
    ['--limit 101', (f) => categories.run(f.ctx, { limit: '101' }), 'invalid --limit "101": expected a whole number from 1 to 100'],
    ['--offset -1', (f) => snapshots.run(f.ctx, { offset: '-1' }, 'p1'), 'invalid --offset "-1": expected a whole number of at least 0'],
    ['--limit with --all', (f) => products.run(f.ctx, { limit: '500', all: true }), /^invalid --limit "500"/],
    ['--category', (f) => products.run(f.ctx, { category: 'milk' }), 'invalid --category "milk": expected a whole number'],
    ['--price-min', (f) => products.run(f.ctx, { priceMin: 'cheap' }), 'invalid --price-min "cheap": expected a number'],
    ['--depth', (f) => categories.run(f.ctx, { depth: 'top' }), 'invalid --depth "top": expected a whole number'],
    ['category id', (f) => category.run(f.ctx, {}, 'abc'), 'invalid category id "abc": expected a whole number'],
    ['settlement id', (f) => settlement.run(f.ctx, {}, '1.5'), 'invalid settlement id "1.5": expected a whole number'],
    ['empty product id', (f) => product.run(f.ctx, {}, ''), 'the product id is empty'],
    ['common-count without --scope', (f) => commonCount.run(f.ctx, {}), '--scope is required: stores or regions'],
    ['dynamics naive time', (f) => dynamics.run(f.ctx, { ...DYNAMICS, to: '2026-02-03T10:00' }, 'p1'), /has no UTC offset/],
    ['dynamics from after to', (f) => dynamics.run(f.ctx, { ...DYNAMICS, from: '2026-02-05' }, 'p1'), /^--from .* is after --to/],
    [
      'dynamics too many points',
      (f) => dynamics.run(f.ctx, { ...DYNAMICS, interval: '1h', from: '2023-01-01' }, 'p1'),
      /points; the service allows at most 20000$/,
    ],
  ];
  it.each(cases)('%s', async (_name, run, message) => {
    const f = setup();
    const error = await usageError(run(f));
    if (typeof message === 'string') expect(error.message).toBe(message);
    else expect(error.message).toMatch(message);
    expect(f.seen).toEqual([]);
    expect(f.stdout()).toBe('');
  });

  it.each([
    ['products', (f: FakeCatalog) => products.run(f.ctx, {}), /^unknown column in --columns: bogus$/],
    ['cursors', (f: FakeCatalog) => cursors.run(f.ctx, {}), /^unknown column in --columns: bogus$/],
    ['dynamics', (f: FakeCatalog) => dynamics.run(f.ctx, DYNAMICS, 'p1'), /^unknown column in --columns: bogus$/],
  ] as const)('%s refuses an unknown --columns name before any request', async (_name, run, message) => {
    const f = setup({ globals: { output: 'csv' } });
    f.ctx.output.configure({ columns: 'bogus' });
    expect((await usageError(run(f))).message).toMatch(message);
    expect(f.seen).toEqual([]);
  });

  it('says how to configure the URL when none is set', async () => {
    const f = setup({ env: { TRIDENT_CATALOG_URL: undefined } });
    const error = await usageError(count.run(f.ctx, {}));
    expect(error.message).toBe('no catalog service URL configured');
    expect(error.hint).toContain('trident config set catalog.url');
    expect(error.hint).toContain('trident sandbox');
    expect((await usageError(count.run(f.ctx, { url: 'ftp://x' }))).message).toBe('invalid --url "ftp://x": use http(s)://');
  });
});

describe('dynamics output', () => {
  const answer = (path: string) => ({
    body: path.includes('/snapshots') ? { items: [{ price_unit: 'EUR' }], meta: { limit: 1, offset: 0, total: 1 } } : SERIES,
  });

  it('prints the service object as it came with -o json, sending dates with an offset', async () => {
    const f = setup({ answer });
    await dynamics.run(f.ctx, DYNAMICS, 'p1');
    expect(JSON.parse(f.stdout())).toEqual(SERIES);
    expect(f.seen).toEqual([
      '/products/p1/dynamics?parser_name=fixprice&source_id=42&field=price&interval=1d&date_from=2026-02-01T00%3A00%3A00.000Z&date_to=2026-02-03T23%3A59%3A59.000Z',
    ]);
  });

  it('prints date,value rows with an empty value for a gap in csv', async () => {
    const f = setup({ answer, globals: { output: 'csv' } });
    await dynamics.run(f.ctx, DYNAMICS, 'p1');
    expect(f.stdout()).toBe('date,value\n2026-02-01T00:00:00Z,90\n2026-02-02T00:00:00Z,\n2026-02-03T00:00:00Z,80\n');
  });

  it('draws a chart in table mode, with the unit of the store row', async () => {
    const f = setup({ answer, globals: { output: 'table' }, columns: 100 });
    await dynamics.run(f.ctx, { ...DYNAMICS, chart: true }, 'p1');
    const lines = f.stdout().split('\n');
    expect(lines[0]).toBe('price (EUR) every 1d, fixprice 42');
    expect(lines[1]).toBe('90.00 ┼────');
    expect(lines).toContain('       2026-02-01 → 2026-02-03');
    expect(f.seen[1]).toBe('/products/p1/snapshots?parser_name=fixprice&source_id=42&limit=1');
  });

  it('labels stock in pcs without asking for the unit', async () => {
    const f = setup({ answer, globals: { output: 'table' } });
    await dynamics.run(f.ctx, { ...DYNAMICS, field: 'available_count', chart: true }, 'p1');
    expect(f.stdout().split('\n')[0]).toBe('available_count (pcs) every 1d, fixprice 42');
    expect(f.seen).toHaveLength(1);
  });

  it('ignores --chart with -o json, and says so', async () => {
    const f = setup({ answer });
    await dynamics.run(f.ctx, { ...DYNAMICS, chart: true }, 'p1');
    expect(JSON.parse(f.stdout())).toEqual(SERIES);
    expect(f.stderr()).toBe('--chart ignored: charts are drawn only with -o table, and the output is json\n');
  });
});

describe('lists', () => {
  const total = 7;
  const answer = (path: string) => {
    const url = new URL(path, 'http://x');
    const limit = Number(url.searchParams.get('limit') ?? 20);
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const items = Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, i) => ({
      canonical_product_id: `p${offset + i}`,
      title: 't',
    }));
    return { body: { items, meta: { limit, offset, total } } };
  };

  it('--all streams every page as ndjson, with progress on a terminal stderr', async () => {
    const f = setup({ answer, globals: { output: 'ndjson' }, stderrTTY: true });
    await products.run(f.ctx, { all: true, limit: '3', offset: '1' });
    expect(
      f
        .stdout()
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).canonical_product_id),
    ).toEqual(['p1', 'p2', 'p3', 'p4', 'p5', 'p6']);
    expect(f.seen).toEqual(['/products?limit=3&offset=1', '/products?limit=3&offset=4']);
    // Drawn over itself (the cursor left at its start), and gone once the last page is in.
    expect(f.stderr()).toBe('\r\u001b[2Kproducts: 3 of 6\r\r\u001b[2K');
  });

  it('shows no progress with --quiet, or when rows stream to the same terminal', async () => {
    const quiet = setup({ answer, globals: { output: 'ndjson', quiet: true }, stderrTTY: true });
    await products.run(quiet.ctx, { all: true });
    expect(quiet.stderr()).toBe('');
    await quiet.close();
    const terminal = setup({ answer, globals: { output: 'ndjson' }, stderrTTY: true, stdoutTTY: true });
    await products.run(terminal.ctx, { all: true });
    expect(terminal.stderr()).toBe('');
    expect(terminal.seen).toEqual(['/products?limit=100&offset=0']);
  });

  it('shows no progress on TERM=dumb, which cannot clear a line', async () => {
    const dumb = setup({ answer, globals: { output: 'ndjson' }, stderrTTY: true, env: { TERM: 'dumb' } });
    await products.run(dumb.ctx, { all: true, limit: '3' });
    expect(dumb.stderr()).toBe('');
    expect(dumb.stdout().trim().split('\n')).toHaveLength(7);
  });

  it('one page: notes on a terminal which rows these were and how to get the rest', async () => {
    const f = setup({ answer, globals: { output: 'json' }, stderrTTY: true });
    await products.run(f.ctx, { limit: '2', offset: '2' });
    expect(JSON.parse(f.stdout())).toEqual({
      items: [
        { canonical_product_id: 'p2', title: 't' },
        { canonical_product_id: 'p3', title: 't' },
      ],
      meta: { limit: 2, offset: 2, total: 7, next_offset: 4 },
    });
    expect(f.stderr()).toBe('products 3–4 of 7; next page: --offset 4, every page: --all\n');
  });

  it('one page in -o json: next_offset is null on the last page; --all stays the array of every item', async () => {
    const last = setup({ answer, globals: { output: 'json' } });
    await products.run(last.ctx, { limit: '5', offset: '5' });
    expect(JSON.parse(last.stdout())).toEqual({
      items: [
        { canonical_product_id: 'p5', title: 't' },
        { canonical_product_id: 'p6', title: 't' },
      ],
      meta: { limit: 5, offset: 5, total: 7, next_offset: null },
    });
    await last.close();
    const all = setup({ answer, globals: { output: 'json' } });
    await products.run(all.ctx, { all: true, limit: '3' });
    expect(JSON.parse(all.stdout()).map((item: { canonical_product_id: string }) => item.canonical_product_id)).toEqual([
      'p0',
      'p1',
      'p2',
      'p3',
      'p4',
      'p5',
      'p6',
    ]);
  });
});

describe('settlements', () => {
  it('sends the filters as the service names them, and nothing for a --limit above its maximum', async () => {
    const f = setup({ answer: () => ({ body: { items: [], meta: { limit: 20, offset: 0, total: 0 } } }) });
    await settlements.run(f.ctx, { search: 'моск', country: 'RUS' });
    expect(f.seen).toEqual([`/settlements?country=RUS&q=${encodeURIComponent('моск')}`]);
    await expect(settlements.run(f.ctx, { limit: '101' })).rejects.toMatchObject({ exitCode: 2 });
    expect(f.seen).toHaveLength(1);
  });
});
