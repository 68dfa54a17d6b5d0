// Every catalog command run as a user would, against the sandbox on a small hand-made catalog whose answers
// are known exactly (the public service's worked examples).
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../helpers/cli.js';
import { PROD_1, PROD_2, smallCatalog } from '../helpers/catalog-fixtures.js';
import { useCatalogSandbox } from '../helpers/per-suite.js';

const sandbox = useCatalogSandbox(smallCatalog(), { resetAfterEach: true });

function catalog(args: string[], env: Record<string, string | undefined> = {}): Promise<CliResult> {
  return runCli(['catalog', ...args], { env: { TRIDENT_CATALOG_URL: sandbox.url, ...env } });
}

async function json<T = unknown>(args: string[]): Promise<T> {
  const result = await catalog([...args, '-o', 'json']);
  expect(result.stderr).toBe('');
  expect(result.exitCode).toBe(0);
  return JSON.parse(result.stdout) as T;
}

/** The items of one page of a paged list in -o json ({"items", "meta"}), its meta checked for shape. */
async function items<T extends unknown[]>(args: string[]): Promise<T> {
  const page = await json<{ items: T; meta: Record<string, unknown> }>(args);
  expect(Object.keys(page.meta)).toEqual(['limit', 'offset', 'total', 'next_offset']);
  return page.items;
}

const DYNAMICS = ['dynamics', PROD_1, '--store', 'fixprice', '--source-id', 'fp-1', '--field', 'price'];

describe('single answers are the service object as it came', () => {
  it('health', async () => {
    expect(await json(['health'])).toEqual({ status: 'ok' });
  });

  it('count, with the normalized stores and regions the service echoes', async () => {
    expect(await json(['count'])).toEqual({ products_count: 2, stores: null, regions: null });
    expect(await json(['count', '--store', 'chizhik', '--region', 'moscow'])).toEqual({
      products_count: 1,
      stores: ['chizhik'],
      regions: ['moscow'],
    });
    expect(await json(['count', '--region', 'spb'])).toEqual({ products_count: 0, stores: null, regions: ['spb'] });
    expect(await json(['count', '--store', ' FixPrice ', '--store', 'chizhik', '--store', 'fixprice'])).toEqual({
      products_count: 2,
      stores: ['fixprice', 'chizhik'],
      regions: null,
    });
    const table = await catalog(['count', '--store', 'FixPrice', '-o', 'table']);
    expect(table.stdout).toMatch(/│ products │ 2 +│/);
    expect(table.stdout).toMatch(/│ stores +│ fixprice │/);
    expect(table.stdout).toMatch(/│ regions +│ \(all\) +│/);
  });

  it('common-count', async () => {
    expect(await json(['common-count', '--scope', 'stores'])).toEqual({
      scope: 'stores',
      common_products_count: 1,
      required_stores: 2,
      required_regions: null,
      stores: null,
      regions: null,
    });
    expect(await json(['common-count', '--scope', 'regions', '--region', 'Moscow', '--region', 'Saint Petersburg'])).toMatchObject({
      common_products_count: 0,
      required_regions: 2,
      regions: ['moscow', 'saint petersburg'],
    });
    const tsv = await catalog(['common-count', '--scope', 'stores', '--store', 'fixprice']);
    expect(tsv.stdout).toBe(
      'scope\tcommon_products_count\trequired_stores\trequired_regions\tstores\tregions\nstores\t2\t1\t\tfixprice\t\n',
    );
  });

  it('dynamics: the 1d and 6h worked examples', async () => {
    const daily = await json<{ dates: string[]; values: unknown[]; meta: Record<string, unknown> }>([
      ...DYNAMICS,
      '--interval',
      '1d',
      '--from',
      '2026-02-01',
      '--to',
      '2026-02-03T23:59:59Z',
    ]);
    expect(daily).toEqual({
      dates: ['2026-02-01T00:00:00Z', '2026-02-02T00:00:00Z', '2026-02-03T00:00:00Z'],
      values: [90, null, 80],
      meta: {
        canonical_product_id: PROD_1,
        parser_name: 'fixprice',
        source_id: 'fp-1',
        field: 'price',
        interval: '1d',
        date_from: '2026-02-01T00:00:00Z',
        date_to: '2026-02-03T23:59:59Z',
      },
    });
    const sixHours = await json<{ dates: string[]; values: unknown[] }>([
      ...DYNAMICS,
      '--interval',
      '6h',
      '--from',
      '2026-02-01T03:00:00+03:00',
      '--to',
      '2026-02-01T20:00:00Z',
    ]);
    expect(sixHours.dates).toEqual(['2026-02-01T00:00:00Z', '2026-02-01T06:00:00Z', '2026-02-01T12:00:00Z', '2026-02-01T18:00:00Z']);
    expect(sixHours.values).toEqual([null, 100, 90, null]);
    const sent = sandbox.server.requests.at(-1)!;
    expect(new URLSearchParams(sent.query).get('date_from')).toBe('2026-02-01T00:00:00.000Z');
  });

  it('dynamics as a table and as csv: date and value, empty for a gap', async () => {
    const table = await catalog([...DYNAMICS, '--interval', '1d', '--from', '2026-02-01', '--to', '2026-02-03T23:59:59Z', '-o', 'table'], {
      TZ: 'America/New_York',
    });
    expect(table.stdout).toMatch(/│ 2026-01-31 19:00:00 -05:00 │ +90 │/);
    expect(table.stdout).toMatch(/│ 2026-02-01 19:00:00 -05:00 │ +│/);
    const csv = await catalog([...DYNAMICS, '--interval', '1d', '--from', '2026-02-01', '--to', '2026-02-03T23:59:59Z', '-o', 'csv']);
    expect(csv.stdout).toBe('date,value\n2026-02-01T00:00:00Z,90\n2026-02-02T00:00:00Z,\n2026-02-03T00:00:00Z,80\n');
  });

  it('dynamics --chart draws the gap as blank columns, with the field, unit and dates', async () => {
    const result = await catalog([
      ...DYNAMICS,
      '--interval',
      '6h',
      '--from',
      '2026-02-01T03:00:00+03:00',
      '--to',
      '2026-02-01T20:00:00Z',
      '--chart',
      '-o',
      'table',
    ]);
    expect(result.exitCode).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('price (RUB) every 6h, fixprice fp-1');
    expect(lines[1]).toBe('100.00 ┤    ───╮');
    expect(lines.at(-3)).toBe(' 90.00 ┤       ╰────');
    expect(lines.at(-2)).toBe('       └┬───────────────');
    expect(lines.at(-1)).toBe('        02-01 00:00Z → 02-01 18:00Z');
    for (const line of lines.slice(1, -2)) {
      expect(line.slice(8, 12)).toMatch(/^ *$/); // the null at 00:00
      expect(line.slice(20)).toBe(''); // the null at 18:00
    }
  });

  it("dynamics without --store and --source-id: the product's only store row, or exit 2 listing its rows", async () => {
    const window = ['--interval', '1d', '--from', '2026-02-01', '--to', '2026-02-03T23:59:59Z'];
    const before = sandbox.server.requests.length;
    // PROD_2's one store row has no snapshot: the series is asked for that row, and the service has none.
    const only = await catalog(['dynamics', PROD_2, ...window, '-o', 'json']);
    expect(only.exitCode).toBe(5);
    expect(only.stderr).toMatch(
      /^the series of fixprice fp-2, the product's only store row\ntrident: catalog service answered 404: source not found\n/,
    );
    const asked = () => sandbox.server.requests.slice(before).map((request) => `${request.path}${request.query}`);
    expect(asked()).toEqual([
      `/products/${PROD_2}/sources?limit=100`,
      `/products/${PROD_2}/dynamics?parser_name=fixprice&source_id=fp-2&field=price&interval=1d&date_from=2026-02-01T00%3A00%3A00.000Z&date_to=2026-02-03T23%3A59%3A59.000Z`,
    ]);

    const several = await catalog(['dynamics', PROD_1, ...window]);
    expect(several).toEqual({
      exitCode: 2,
      stdout: '',
      stderr:
        `trident: product ${PROD_1} has 2 store rows: choose one with --store and --source-id\n` +
        'hint: --store fixprice --source-id fp-1, --store chizhik --source-id ch-1\n',
    });
    expect(asked().slice(2)).toEqual([`/products/${PROD_1}/sources?limit=100`]);

    const byStore = await catalog(['dynamics', PROD_1, '--store', 'chizhik', ...window, '-o', 'json']);
    expect(byStore.exitCode, byStore.stderr).toBe(0);
    expect(JSON.parse(byStore.stdout).meta).toMatchObject({ parser_name: 'chizhik', source_id: 'ch-1' });
  });

  it('dynamics --chart with -o json prints the answer and says the chart is ignored', async () => {
    const result = await catalog([
      ...DYNAMICS,
      '--interval',
      '1d',
      '--from',
      '2026-02-01',
      '--to',
      '2026-02-03T23:59:59Z',
      '--chart',
      '-o',
      'json',
    ]);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ values: [90, null, 80] });
    expect(result.stderr).toBe('--chart ignored: charts are drawn only with -o table, and the output is json\n');
  });
});

describe('lists are their items', () => {
  it('products with filters mapped to the service parameters', async () => {
    const all = await items<Array<Record<string, unknown>>>(['products']);
    expect(all.map((p) => p.canonical_product_id)).toEqual([PROD_1, PROD_2]);
    expect(all[0]).toEqual({
      canonical_product_id: PROD_1,
      title: 'Milk 1l',
      brand: 'Prostokvashino',
      price_from: 80,
      price_unit: 'RUB',
      sources_count: 2,
      observed_at_latest: '2026-02-03T10:00:00Z',
      image_url: null,
      parsers: ['fixprice', 'chizhik'],
    });
    expect((await items<unknown[]>(['products', '--store', 'chizhik'])).length).toBe(1);
    expect((await items<Array<{ canonical_product_id: string }>>(['products', '--search', 'BREAD']))[0]!.canonical_product_id).toBe(PROD_2);
    expect((await items<unknown[]>(['products', '--brand', 'hlebny dom'])).length).toBe(1);
    expect((await items<unknown[]>(['products', '--promo'])).length).toBe(1);
    expect((await items<unknown[]>(['products', '--no-promo'])).length).toBe(2);
    expect((await items<unknown[]>(['products', '--price-min', '50', '--price-max', '85'])).length).toBe(1);
    expect((await items<unknown[]>(['products', '--category', '11', '--settlement', '1'])).length).toBe(2);
    expect((await items<unknown[]>(['products', '--settlement', '2'])).length).toBe(0);
    expect((await items<Array<{ canonical_product_id: string }>>(['products', '--sort', 'price_asc']))[0]!.canonical_product_id).toBe(
      PROD_2,
    );
    const query = new URLSearchParams(sandbox.server.requests.at(-1)!.query);
    expect(query.get('sort')).toBe('price_asc');
    await json(['products', '--search', 'milk', '--store', 'fixprice', '--limit', '5', '--offset', '0']);
    expect(sandbox.server.requests.at(-1)!.query).toBe('?q=milk&parser_name=fixprice&limit=5&offset=0');
  });

  it('product, sources, snapshots', async () => {
    expect(await json([`product`, PROD_2])).toMatchObject({ canonical_product_id: PROD_2, title: 'Bread', parsers: ['fixprice'] });
    const sources = await items<Array<Record<string, unknown>>>(['sources', PROD_1, '--sort', 'observed_at_asc']);
    expect(sources.map((s) => s.source_id)).toEqual(['ch-1', 'fp-1']);
    expect(sources[1]).toMatchObject({ parser_name: 'fixprice', price: 100, discount_price: 80, settlement: { id: 1, name: 'Moscow' } });
    const snapshots = await items<Array<Record<string, unknown>>>(['snapshots', PROD_1, '--store', 'fixprice', '--source-id', 'fp-1']);
    expect(snapshots.map((s) => s.price)).toEqual([80, 90, 100]);
    expect((await items<unknown[]>(['snapshots', PROD_1, '--limit', '1', '--offset', '3'])).length).toBe(1);
  });

  it('categories, category, settlements, settlement, cursors', async () => {
    expect((await items<Array<{ id: number }>>(['categories'])).map((c) => c.id)).toEqual([11, 10]);
    expect((await items<Array<{ id: number }>>(['categories', '--store', 'fixprice', '--depth', '1'])).map((c) => c.id)).toEqual([11]);
    expect((await items<Array<{ id: number }>>(['categories', '--parent', 'fp-food'])).map((c) => c.id)).toEqual([11]);
    expect((await items<Array<{ id: number }>>(['categories', '--search', 'food'])).map((c) => c.id)).toEqual([10]);
    expect(await json(['category', '10'])).toMatchObject({ id: 10, title: 'Food', depth: 0 });
    expect((await items<Array<{ id: number }>>(['settlements', '--region', 'Moscow'])).map((s) => s.id)).toEqual([1]);
    expect((await items<Array<{ id: number }>>(['settlements', '--search', 'peters', '--country', 'Russia'])).map((s) => s.id)).toEqual([
      2,
    ]);
    expect(await json(['settlement', '2'])).toMatchObject({ id: 2, name: 'Saint Petersburg' });
    expect(await json(['cursors'])).toEqual([
      { parser_name: 'fixprice', ingested_at: '2026-02-03T10:00:00+00:00', product_id: 42, updated_at: '2026-02-10T00:00:00Z' },
    ]);
    expect(await json(['cursors', '--store', 'chizhik'])).toEqual([]);
  });

  it('csv, tsv and ndjson parse back to the json rows', async () => {
    const rows = await items<Array<Record<string, unknown>>>(['products']);
    const csv = parse((await catalog(['products', '-o', 'csv'])).stdout, { columns: true }) as Array<Record<string, string>>;
    expect(csv.map((r) => [r.canonical_product_id, r.title, r.parsers, r.image_url])).toEqual(
      rows.map((r) => [r.canonical_product_id, r.title, (r.parsers as string[]).join(','), '']),
    );
    const [header, ...lines] = (await catalog(['products', '-o', 'tsv'])).stdout.trimEnd().split('\n');
    expect(header!.split('\t')).toEqual(Object.keys(rows[0]!));
    expect(lines.map((line) => line.split('\t')[0])).toEqual(rows.map((r) => r.canonical_product_id));
    const ndjson = (await catalog(['products', '-o', 'ndjson'])).stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as unknown);
    expect(ndjson).toEqual(rows);
  });
});

describe('errors', () => {
  it('404s exit 5 with the service detail', async () => {
    const cases: Array<[string[], string]> = [
      [['product', 'no-such-product'], 'product_not_found'],
      [['sources', 'no-such-product'], 'product_not_found'],
      [['category', '999'], 'category_not_found'],
      [['settlement', '999'], 'settlement_not_found'],
      [[...DYNAMICS.slice(0, 2), '--store', 'fixprice', '--source-id', 'nope', '--field', 'price', '--interval', '1d'], 'source not found'],
    ];
    for (const [args, detail] of cases) {
      const result = await catalog(args);
      expect(result.exitCode, args.join(' ')).toBe(5);
      expect(result.stderr).toBe(
        `trident: catalog service answered 404: ${detail}\nhint: check the id, and that the URL points at the right service\n`,
      );
      expect(result.stdout).toBe('');
    }
  });

  it('a 422 list reads as one line per problem, joined', async () => {
    sandbox.server.faults.add({
      path: '/products',
      fault: {
        kind: 'status',
        status: 422,
        body: {
          detail: [
            {
              type: 'int_parsing',
              loc: ['query', 'category_id'],
              msg: 'Input should be a valid integer, unable to parse string as an integer',
              input: 'x',
            },
            { type: 'missing', loc: ['query', 'q'], msg: 'Field required', input: null },
          ],
        },
      },
    });
    const result = await catalog(['products']);
    expect(result.exitCode).toBe(6);
    expect(result.stderr).toBe(
      'trident: catalog service answered 422: query.category_id: Input should be a valid integer, unable to parse string as an integer; query.q: Field required\n',
    );
  });

  it('an unavailable service exits 8 with its detail', async () => {
    sandbox.server.faults.add({
      path: '/healthz',
      fault: { kind: 'status', status: 503, body: { detail: 'catalog_unavailable: disk I/O error' } },
    });
    const result = await catalog(['health', '--retries', '0']);
    expect(result.exitCode).toBe(8);
    expect(result.stderr).toBe(
      'trident: catalog service answered 503: catalog_unavailable: disk I/O error\nhint: the service failed; try again later\n',
    );
  });

  it('without a URL: exit 2 with a hint; --url and the profile work too', async () => {
    const missing = await runCli(['catalog', 'count']);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('trident: no catalog service URL configured\nhint: ');
    expect(missing.stderr).toContain('trident config set catalog.url');
    expect(missing.stderr).toContain('trident sandbox');
    const flag = await runCli(['catalog', 'count', '--url', sandbox.url, '-o', 'json']);
    expect(JSON.parse(flag.stdout)).toMatchObject({ products_count: 2 });
    const { tempConfigDir } = await import('../helpers/cli.js');
    const configDir = tempConfigDir();
    await runCli(['config', 'set', 'catalog.url', `${sandbox.url}/`], { configDir });
    const profile = await runCli(['catalog', 'count', '-o', 'json'], { configDir });
    expect(JSON.parse(profile.stdout)).toMatchObject({ products_count: 2 });
  });

  it('every client-side rejection exits 2 and sends no request', async () => {
    const rejected = [
      ['products', '--limit', '0'],
      ['products', '--limit', '101'],
      ['products', '--offset', '-5'],
      ['products', '--sort', 'cheapest'],
      ['products', '--price-min', 'low'],
      ['products', '--category', 'dairy'],
      ['sources', PROD_1, '--sort', 'price_asc'],
      ['snapshots', PROD_1, '--limit', '1000'],
      ['categories', '--depth', 'deep'],
      ['category', 'abc'],
      ['settlement', '1.5'],
      ['common-count'],
      ['common-count', '--scope', 'cities'],
      [...DYNAMICS, '--interval', '1d', '--field', 'rating'],
      [...DYNAMICS, '--interval', '2d'],
      [...DYNAMICS, '--from', '2000-01-01', '--interval', '1h'],
      [...DYNAMICS, '--interval', '1d', '--from', '2026-02-01T10:00:00'],
      [...DYNAMICS, '--interval', '1d', '--from', '2026-02-05', '--to', '2026-02-01'],
      [...DYNAMICS, '--interval', '1h', '--from', '2024-01-01', '--to', '2026-12-31'],
      [...DYNAMICS, '--interval', '1d', '--from', 'last week'],
      ['products', '--frobnicate'],
    ];
    const before = sandbox.server.requests.length;
    for (const args of rejected) {
      const result = await catalog(args);
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(/^trident: /);
      expect(result.stdout).toBe('');
    }
    expect(sandbox.server.requests.length).toBe(before);
  });
});

describe('a repeated --store', () => {
  it.each([
    ['products'],
    ['snapshots', PROD_1],
    ['categories'],
    ['cursors'],
    ['dynamics', PROD_1, '--source-id', 'fp-1', '--field', 'price', '--interval', '1d'],
  ])('is refused where the service takes one store: %s', async (...args) => {
    const before = sandbox.server.requests.length;
    const result = await catalog([...args, '--store', 'fixprice', '--store', 'chizhik']);
    expect(result).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: expect.stringMatching(
        /^trident: --store given twice \("fixprice", then "chizhik"\)[^\n]*\nhint: only catalog count and common-count take several --store\n$/,
      ),
    });
    expect(sandbox.server.requests.length).toBe(before);
  });

  it('is still several stores on count and common-count', async () => {
    expect(await json(['count', '--store', 'fixprice', '--store', 'chizhik'])).toMatchObject({ stores: ['fixprice', 'chizhik'] });
    expect(await json(['common-count', '--scope', 'stores', '--store', 'fixprice', '--store', 'chizhik'])).toMatchObject({
      stores: ['fixprice', 'chizhik'],
    });
  });
});

describe('help', () => {
  it('lists the 13 commands, each with a summary and examples', async () => {
    const group = await runCli(['catalog', '--help']);
    const commands = [
      'health',
      'products',
      'product',
      'sources',
      'snapshots',
      'count',
      'common-count',
      'dynamics',
      'categories',
      'category',
      'settlements',
      'settlement',
      'cursors',
    ];
    for (const name of commands) {
      expect(group.stdout).toMatch(new RegExp(`^  ${name}\\b.* {2,}\\S`, 'm'));
      const help = await runCli(['catalog', name, '--help']);
      expect(help.exitCode).toBe(0);
      expect(help.stdout).toContain(`Examples:\n  $ trident catalog ${name}`);
    }
    const dynamics = await runCli(['catalog', 'dynamics', '--help']);
    expect(dynamics.stdout).toContain('30 days before --to');
  });
});
