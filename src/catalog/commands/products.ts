import { Option } from '@commander-js/extra-typings';
import { defineCommand, type GroupCommand, type OptionsOf } from '../../command.js';
import type { Context } from '../../context.js';
import type { ProductQuery } from '../client.js';
import { PRODUCT_COLUMNS, PRODUCT_FIELDS } from '../columns.js';
import { addListOptions, printList } from '../list.js';
import { PRODUCT_SORTS, decimal, integer } from '../validate.js';
import { oneStore } from '../options.js';

/** The service's query for these options; everything it would refuse is refused here (exit 2). */
export function productQuery(opts: ProductsOptions): ProductQuery {
  return {
    q: opts.search,
    parser_name: opts.store,
    category_id: integer(opts.category, '--category'),
    settlement_id: integer(opts.settlement, '--settlement'),
    brand: opts.brand,
    promo: opts.promo,
    is_new: opts.isNew,
    hit: opts.hit,
    adult: opts.adult,
    price_min: decimal(opts.priceMin, '--price-min'),
    price_max: decimal(opts.priceMax, '--price-max'),
    sort: opts.sort,
  };
}

const define = (group: GroupCommand) =>
  addListOptions(
    group
      .command('products')
      .summary('list products, filtered and sorted')
      .description(
        'List products: one row per product, over the store rows that match the filters. ' +
          'With --all, every page is fetched in turn and rows are written as they arrive (constant memory).',
      )
      .option('--search <text>', "case-insensitive substring of the title or brand (the service's q)")
      .option('--store <name>', 'only rows from this store (parser_name, e.g. fixprice)', oneStore)
      .option('--category <id>', 'only this category id')
      .option('--settlement <id>', 'only this settlement id')
      .option('--brand <name>', 'only this brand (case-insensitive)')
      .option('--promo', 'only products on promotion')
      .option('--no-promo', 'only products not on promotion')
      .option('--is-new', 'only products the store marks as new')
      .option('--no-is-new', 'only products not marked as new')
      .option('--hit', 'only products the store marks as a hit (bestseller)')
      .option('--no-hit', 'only products not marked as a hit')
      .option('--adult', 'only products for adults (alcohol, tobacco)')
      .option('--no-adult', 'only products not for adults')
      .option('--price-min <n>', 'lowest price (of discount, loyal or regular price, the first that is set)')
      .option('--price-max <n>', 'highest price (same rule)')
      .addOption(new Option('--sort <order>', 'order of the rows (default observed_at_desc)').choices(PRODUCT_SORTS)),
  );

export type ProductsOptions = OptionsOf<typeof define>;

export async function run(ctx: Context, opts: ProductsOptions): Promise<void> {
  const query = productQuery(opts);
  await printList(ctx, opts, {
    noun: 'products',
    columns: PRODUCT_COLUMNS,
    fields: PRODUCT_FIELDS,
    store: opts.store,
    fetch: (client, page) => client.products({ ...query, ...page }),
  });
}

export const { register, definition } = defineCommand({
  define,
  examples: [
    'trident catalog products --search молоко --store fixprice',
    'trident catalog products --price-max 100 --sort price_asc --limit 50',
    'trident catalog products --all -o ndjson > products.ndjson',
  ],
  columns: PRODUCT_FIELDS,
  run,
});
