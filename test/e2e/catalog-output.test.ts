// What scripts and people get from catalog lists beyond the rows: the header of an empty csv/tsv, the
// fields each list declares (held to what the service sends), --columns, and a warning for a store the
// service does not know.
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import {
  CATEGORY_FIELDS,
  CURSOR_FIELDS,
  PRODUCT_FIELDS,
  SETTLEMENT_FIELDS,
  SNAPSHOT_FIELDS,
  SOURCE_FIELDS,
} from '../../src/catalog/columns.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { PROD_1, smallCatalog } from '../helpers/catalog-fixtures.js';
import { useCatalogSandbox } from '../helpers/per-suite.js';

const sandbox = useCatalogSandbox(smallCatalog());

function catalog(args: string[], url = sandbox.url): Promise<CliResult> {
  return runCli(['catalog', ...args], { env: { TRIDENT_CATALOG_URL: url } });
}

describe('fields of each list', () => {
  it.each([
    [['products'], PRODUCT_FIELDS],
    [['sources', PROD_1], SOURCE_FIELDS],
    [['snapshots', PROD_1], SNAPSHOT_FIELDS],
    [['categories'], CATEGORY_FIELDS],
    [['settlements'], SETTLEMENT_FIELDS],
    [['cursors'], CURSOR_FIELDS],
  ])('%j declares the fields the service sends, in its order', async (args, fields) => {
    const result = await catalog([...args, '-o', 'csv']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout.split('\n')[0]).toBe(fields.join(','));
  });

  it('an empty list in csv or tsv still prints its header line', async () => {
    const csv = await catalog(['products', '--settlement', '2', '-o', 'csv']);
    expect(csv).toMatchObject({ exitCode: 0, stdout: `${PRODUCT_FIELDS.join(',')}\n`, stderr: '' });
    const tsv = await catalog(['categories', '--search', 'nothing-like-this', '-o', 'tsv']);
    expect(tsv).toMatchObject({ exitCode: 0, stdout: `${CATEGORY_FIELDS.join('\t')}\n` });
    const cursors = await catalog(['cursors', '--store', 'chizhik', '-o', 'csv']);
    expect(cursors.stdout).toBe(`${CURSOR_FIELDS.join(',')}\n`);
  });
});

describe('--columns', () => {
  it('chooses and orders the columns of csv, tsv and table', async () => {
    const csv = await catalog(['products', '--columns', 'price_from,canonical_product_id', '-o', 'csv']);
    expect(csv.exitCode).toBe(0);
    expect(parse(csv.stdout)).toEqual([
      ['price_from', 'canonical_product_id'],
      ['80', PROD_1],
      ['40', '22222222-2222-4222-8222-222222222222'],
    ]);
    const tsv = await runCli(['--columns', 'source_id,price', 'catalog', 'sources', PROD_1, '-o', 'tsv'], {
      env: { TRIDENT_CATALOG_URL: sandbox.url },
    });
    expect(tsv.stdout.split('\n')[0]).toBe('source_id\tprice');
    const table = await catalog(['products', '--columns', 'brand,canonical_product_id', '-o', 'table']);
    expect(table.stdout.split('\n')[1]).toMatch(/^│ brand +│ id +│$/);
  });

  it('an unknown column is exit 2 naming the valid ones, before any request', async () => {
    const unreachable = 'http://127.0.0.1:9'; // nothing listens: a request would be exit 8
    const result = await catalog(['products', '--columns', 'canonical_product_id,prise', '-o', 'csv'], unreachable);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`trident: unknown column in --columns: prise\nhint: the columns here: ${PRODUCT_FIELDS.join(', ')}\n`);
  });
});

describe('a store the service does not know', () => {
  const warning = 'warning: the catalog knows no store "fixprise": its stores are fixprice\n';

  it('count and common-count of 0 warn, naming the known stores; the result is still printed, exit 0', async () => {
    const count = await catalog(['count', '--store', 'fixprise', '-o', 'json']);
    expect(count.exitCode).toBe(0);
    expect(JSON.parse(count.stdout)).toMatchObject({ products_count: 0 });
    expect(count.stderr).toBe(warning);
    const common = await catalog(['common-count', '--scope', 'stores', '--store', 'fixprise', '--store', 'fixprice', '-o', 'json']);
    expect(common.exitCode).toBe(0);
    expect(common.stderr).toBe(warning);
  });

  it('an empty list warns too, and a known store or a non-empty result does not', async () => {
    expect((await catalog(['products', '--store', 'fixprise', '-o', 'csv'])).stderr).toBe(warning);
    expect((await catalog(['products', '--store', 'fixprise', '--all', '-o', 'ndjson'])).stderr).toBe(warning);
    expect((await catalog(['count', '--store', 'fixprice', '-o', 'json'])).stderr).toBe('');
    expect((await catalog(['count', '--store', 'fixprice', '--region', 'spb', '-o', 'json'])).stderr).toBe('');
  });
});
