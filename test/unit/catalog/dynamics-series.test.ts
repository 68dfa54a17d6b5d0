// catalog dynamics without --store or --source-id: the store row is the product's only one, or the error lists
// the rows to choose from; with both flags nothing but the series is asked for.
import { afterEach, describe, expect, it } from 'vitest';
import * as dynamics from '../../../src/catalog/commands/dynamics.js';
import { TridentError } from '../../../src/core/errors.js';
import { fakeCatalog, usageRejection, type FakeCatalog } from './helpers.js';

let fake: FakeCatalog | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const WINDOW: dynamics.DynamicsOptions = { field: 'price', interval: '1d', from: '2026-02-01T00:00:00Z', to: '2026-02-02T00:00:00Z' };
const SERIES = { dates: ['2026-02-01T00:00:00Z', '2026-02-02T00:00:00Z'], values: [90, 80], meta: {} };

function catalogWith(rows: Array<{ parser_name: string; source_id: string }>, total = rows.length): FakeCatalog {
  fake = fakeCatalog({
    answer: (path) => ({
      body: path.includes('/sources') ? { items: rows, meta: { limit: 100, offset: 0, total } } : SERIES,
    }),
  });
  return fake;
}

const THREE = [
  { parser_name: 'fixprice', source_id: '7' },
  { parser_name: 'perekrestok', source_id: '100005' },
  { parser_name: 'perekrestok', source_id: '100006' },
];

describe('catalog dynamics: which store row', () => {
  it("takes the product's only store row, and says which it took", async () => {
    const f = catalogWith([{ parser_name: 'chizhik', source_id: '55' }]);
    await dynamics.run(f.ctx, WINDOW, 'p1');
    expect(f.seen).toEqual([
      '/products/p1/sources?limit=100',
      '/products/p1/dynamics?parser_name=chizhik&source_id=55&field=price&interval=1d&date_from=2026-02-01T00%3A00%3A00.000Z&date_to=2026-02-02T00%3A00%3A00.000Z',
    ]);
    expect(JSON.parse(f.stdout())).toEqual(SERIES);
    expect(f.stderr()).toBe("the series of chizhik 55, the product's only store row\n");
  });

  it('with several rows, refuses (exit 2) listing them in the hint, and asks for no series', async () => {
    const f = catalogWith(THREE);
    const error = await usageRejection(dynamics.run(f.ctx, WINDOW, 'p1'));
    expect(error.message).toBe('product p1 has 3 store rows: choose one with --store and --source-id');
    expect(error.hint).toBe(
      '--store fixprice --source-id 7, --store perekrestok --source-id 100005, --store perekrestok --source-id 100006',
    );
    expect(f.seen).toEqual(['/products/p1/sources?limit=100']);
    expect(f.stdout()).toBe('');
  });

  it('--store alone is enough when the store has one row of the product; otherwise its rows are listed', async () => {
    const f = catalogWith(THREE);
    await dynamics.run(f.ctx, { ...WINDOW, store: 'fixprice' }, 'p1');
    expect(f.seen[1]).toMatch(/^\/products\/p1\/dynamics\?parser_name=fixprice&source_id=7&/);

    const error = await usageRejection(dynamics.run(f.ctx, { ...WINDOW, store: 'perekrestok' }, 'p1'));
    expect(error.message).toBe('--store perekrestok matches 2 store rows of product p1: choose one with --source-id');
    expect(error.hint).toBe('--store perekrestok --source-id 100005, --store perekrestok --source-id 100006');
  });

  it('--source-id alone finds its store; a store the product is not sold in lists every row', async () => {
    const f = catalogWith(THREE);
    await dynamics.run(f.ctx, { ...WINDOW, sourceId: '100006' }, 'p1');
    expect(f.seen[1]).toMatch(/parser_name=perekrestok&source_id=100006&/);

    const error = await usageRejection(dynamics.run(f.ctx, { ...WINDOW, store: 'magnit' }, 'p1'));
    expect(error.message).toBe('no store row of product p1 matches --store magnit');
    expect(error.hint).toContain('--store fixprice --source-id 7');
  });

  it('with both flags asks for nothing but the series', async () => {
    const f = catalogWith(THREE);
    await dynamics.run(f.ctx, { ...WINDOW, store: 'magnit', sourceId: '1' }, 'p1');
    expect(f.seen).toHaveLength(1);
    expect(f.seen[0]).toMatch(/^\/products\/p1\/dynamics\?parser_name=magnit&source_id=1&/);
    expect(f.stderr()).toBe('');
  });

  it('names five rows and points at catalog sources for the rest', async () => {
    const many = Array.from({ length: 8 }, (_, i) => ({ parser_name: 'fixprice', source_id: String(i) }));
    const f = catalogWith(many, 130);
    const error = await usageRejection(dynamics.run(f.ctx, WINDOW, 'p1'));
    expect(error.message).toBe('product p1 has 130 store rows: choose one with --store and --source-id');
    expect(error.hint!.split(', --store')).toHaveLength(5);
    expect(error.hint).toMatch(/; all of them: trident catalog sources p1$/);
  });

  it('a product with no store rows is exit 5; control characters from the service are escaped', async () => {
    const f = catalogWith([]);
    await expect(dynamics.run(f.ctx, WINDOW, 'p1')).rejects.toMatchObject({
      exitCode: 5,
      message: 'product p1 has no store rows: there is no series to show',
    });
    await f.close();
    const hostile = catalogWith([
      { parser_name: 'evil\u001b[2J', source_id: '1' },
      { parser_name: 'fixprice', source_id: '2' },
    ]);
    const error = await usageRejection(dynamics.run(hostile.ctx, WINDOW, 'p1'));
    expect(error).toBeInstanceOf(TridentError);
    expect(error.hint).toBe('--store evil\\x1b[2J --source-id 1, --store fixprice --source-id 2');
  });
});
