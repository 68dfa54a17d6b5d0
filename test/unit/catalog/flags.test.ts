// The catalog's command lines, parsed in-process by each command's definition (the parse seam): what run gets,
// and the usage errors (exit 2) commander gives before run is called, so before any request.
import { describe, expect, it } from 'vitest';
import * as category from '../../../src/catalog/commands/category.js';
import * as commonCount from '../../../src/catalog/commands/common-count.js';
import * as count from '../../../src/catalog/commands/count.js';
import * as dynamics from '../../../src/catalog/commands/dynamics.js';
import * as products from '../../../src/catalog/commands/products.js';
import * as settlements from '../../../src/catalog/commands/settlements.js';
import * as snapshots from '../../../src/catalog/commands/snapshots.js';
import * as sources from '../../../src/catalog/commands/sources.js';
import { parseCommand, usageFailure } from '../../helpers/parse-command.js';

describe('catalog flags, parsed', () => {
  it('settlements: the filters and paging of a list; an option without its value is a usage error', async () => {
    expect((await parseCommand(settlements, ['--search', 'моск', '--all'])).opts).toMatchObject({ search: 'моск', all: true });
    expect((await usageFailure(settlements, ['--country']))?.message).toBe("option '--country <name>' argument missing");
  });

  it('products: each filter under its name, --no-x as false, globals after the command too', async () => {
    const { opts, globals } = await parseCommand(products, [
      '--search',
      'молоко',
      '--no-promo',
      '--is-new',
      '--price-max',
      '99.5',
      '--all',
      '-o',
      'json',
    ]);
    expect(opts).toEqual({ search: 'молоко', promo: false, isNew: true, priceMax: '99.5', all: true });
    expect(globals).toMatchObject({ output: 'json' });
  });

  it('count: --store and --region are repeatable, in order', async () => {
    const { opts } = await parseCommand(count, ['--store', 'fixprice', '--region', 'москва', '--store', 'chizhik']);
    expect(opts).toEqual({ store: ['fixprice', 'chizhik'], region: ['москва'] });
  });

  it('dynamics: the field is the price unless given; the id is the argument', async () => {
    const { opts, args } = await parseCommand(dynamics, ['p1', '--store', 'fixprice', '--source-id', '7']);
    expect(opts).toEqual({ store: 'fixprice', sourceId: '7', field: 'price' });
    expect(args).toEqual(['p1']);
  });

  it.each([
    [
      products,
      ['--sort', 'cheapest'],
      "option '--sort <order>' argument 'cheapest' is invalid. Allowed choices are observed_at_desc, observed_at_asc, price_asc, price_desc, rating_desc.",
    ],
    [
      sources,
      ['p1', '--sort', 'price_asc'],
      "option '--sort <order>' argument 'price_asc' is invalid. Allowed choices are observed_at_desc, observed_at_asc.",
    ],
    [
      snapshots,
      ['p1', '--sort', 'newest'],
      "option '--sort <order>' argument 'newest' is invalid. Allowed choices are observed_at_desc, observed_at_asc.",
    ],
    [commonCount, ['--scope', 'cities'], "option '--scope <scope>' argument 'cities' is invalid. Allowed choices are stores, regions."],
    [
      dynamics,
      ['p1', '--field', 'cost'],
      "option '--field <field>' argument 'cost' is invalid. Allowed choices are price, discount_price, loyal_price, available_count.",
    ],
    [
      dynamics,
      ['p1', '--interval', '12h'],
      "option '--interval <interval>' argument '12h' is invalid. Allowed choices are 1h, 6h, 1d, 7d.",
    ],
    [category, [], "missing required argument 'id'"],
    [category, ['1', '2'], "too many arguments for 'category'. Expected 1 argument but got 2."],
    [products, ['--store', 'a', '--store', 'b'], '--store given twice ("a", then "b"): this command takes one'],
    [products, ['--serch', 'x'], "unknown option '--serch'\n(Did you mean --search?)"],
  ] as const)('%#: refused before run, exit 2', async (module, argv, message) => {
    const failure = await usageFailure(module, [...argv]);
    expect({ exitCode: failure?.exitCode, message: failure?.message }).toEqual({ exitCode: 2, message });
  });
});
