// What a person at a terminal is told about a list beside its rows: which rows, how to get the rest, or that
// there was nothing. Scripts (stderr not a terminal) are told nothing.
import { afterEach, describe, expect, it } from 'vitest';
import * as products from '../../../src/catalog/commands/products.js';
import { fakeCatalog, type FakeCatalog } from './helpers.js';

let open: FakeCatalog[] = [];
afterEach(async () => {
  await Promise.all(open.map((f) => f.close()));
  open = [];
});

function catalogOf(total: number, stderrTTY = true): FakeCatalog {
  const f = fakeCatalog({
    stderrTTY,
    globals: { output: 'csv' },
    answer: (path) => {
      const query = new URL(path, 'http://x').searchParams;
      const offset = Number(query.get('offset') ?? 0);
      const limit = Number(query.get('limit') ?? 20);
      const items = Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, n) => ({
        canonical_product_id: `p${offset + n}`,
      }));
      return { body: { items, meta: { total, limit, offset } } };
    },
  });
  open.push(f);
  return f;
}

describe('notes beside a list', () => {
  it('says there are none when nothing matches', async () => {
    const f = catalogOf(0);
    await products.run(f.ctx, {});
    expect(f.stdout()).toBe('canonical_product_id,title,brand,price_from,price_unit,sources_count,observed_at_latest,image_url,parsers\n');
    expect(f.stderr()).toBe('no products\n');
  });

  it('says so with --all too', async () => {
    const f = catalogOf(0);
    await products.run(f.ctx, { all: true });
    expect(f.stderr().replace(/\r?\u001b\[2K/g, '')).toBe('no products\n'); // after the progress line is cleared
  });

  it('says where the rows are when --offset is past them', async () => {
    const f = catalogOf(7);
    await products.run(f.ctx, { offset: '30' });
    expect(f.stderr()).toBe('no products from --offset 30: there are 7\n');
  });

  it('says nothing of a last page, nor to a script', async () => {
    const last = catalogOf(7);
    await products.run(last.ctx, { offset: '5' });
    expect(last.stderr()).toBe('');
    const script = catalogOf(0, false);
    await products.run(script.ctx, {});
    expect(script.stderr()).toBe('');
  });
});
