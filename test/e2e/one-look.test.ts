// The same field looks the same in every command's table: times local with their offset, ages in words, labels
// as words and figures right-aligned; machine output keeps the exact values.
import { describe, expect, it } from 'vitest';
import { PROD_1, smallCatalog } from '../helpers/catalog-fixtures.js';
import { runCli } from '../helpers/cli.js';
import { runKeys } from '../helpers/keys-sandbox.js';
import { useCatalogSandbox, useKeysSandbox } from '../helpers/per-suite.js';

const keys = useKeysSandbox();
const catalog = useCatalogSandbox(smallCatalog());
const NEW_YORK = { TZ: 'America/New_York' };
const LOCAL_TIME = /\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} -0[45]:00/;

describe('one look for the same field', () => {
  it('keys generate: the record labels its id as keys list does, and its creation time is local', async () => {
    const made = await runKeys(keys, ['generate', '--name', 'one-look', '-o', 'table'], { env: NEW_YORK });
    expect(made.exitCode, made.stderr).toBe(0);
    expect(made.stdout).toMatch(/^│ id +│ [0-9a-f-]{36} +│$/m);
    expect(made.stdout).toMatch(new RegExp(`^│ created +│ ${LOCAL_TIME.source} +│$`, 'm'));
    const json = await runKeys(keys, ['list', '-o', 'json']);
    expect(JSON.parse(json.stdout)[0].created_ts).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it('keys list: an age in words in the table, in seconds in JSON', async () => {
    const table = await runKeys(keys, ['list', '-o', 'table', '--columns', 'api_key,age_seconds']);
    expect(table.exitCode, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/│ (under a minute|1 minute) +│$/m);
    const json = await runKeys(keys, ['list', '-o', 'json']);
    expect(typeof JSON.parse(json.stdout)[0].age_seconds).toBe('number');
  });

  it('a record without declared fields (catalog product): its field names read as words', async () => {
    const result = await runCli(['catalog', 'product', PROD_1, '-o', 'table'], { env: { TRIDENT_CATALOG_URL: catalog.url } });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^│ canonical product id +│ 11111111-1111-4111-8111-111111111111 +│$/m);
    expect(result.stdout).not.toMatch(/^│ \w+_\w+ /m);
  });

  it('figures are right-aligned under a left-aligned label', async () => {
    const result = await runCli(['catalog', 'products', '-o', 'table', '--columns', 'canonical_product_id,price_from'], {
      env: { TRIDENT_CATALOG_URL: catalog.url },
    });
    expect(result.exitCode, result.stderr).toBe(0);
    const rows = result.stdout.split('\n').filter((line) => /^│ [0-9a-f-]{36} │/.test(line));
    const prices = rows.map((line) => line.split('│')[2]!);
    expect(prices.length).toBeGreaterThan(1);
    for (const cell of prices) if (cell.trim() !== '') expect(cell).toMatch(/^ +\S+ $/);
    expect(result.stdout).toMatch(/^│ id +│ price from │$/m);
  });
});
