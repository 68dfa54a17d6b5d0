// `trident catalog`: the 13 read-only routes of the catalog service, one command each (DESIGN §2.5).
import type { Command } from 'commander';
import { examples, type Binder } from '../command.js';
import * as categories from './commands/categories.js';
import * as category from './commands/category.js';
import * as commonCount from './commands/common-count.js';
import * as count from './commands/count.js';
import * as cursors from './commands/cursors.js';
import * as dynamics from './commands/dynamics.js';
import * as health from './commands/health.js';
import * as product from './commands/product.js';
import * as products from './commands/products.js';
import { SANDBOX_PRODUCT, SANDBOX_SERIES } from './examples.js';
import * as settlement from './commands/settlement.js';
import * as settlements from './commands/settlements.js';
import * as snapshots from './commands/snapshots.js';
import * as sources from './commands/sources.js';

export function register(group: Command, bind: Binder): void {
  for (const command of [health, products, product, sources, snapshots, count, commonCount, dynamics, categories, category, settlements, settlement, cursors]) {
    command.register(group, bind);
  }
  examples(group, [
    'trident catalog products --search молоко --sort price_asc',
    'trident catalog count --store fixprice --store chizhik --region москва',
    `trident catalog dynamics ${SANDBOX_PRODUCT} ${SANDBOX_SERIES} --field price --interval 1d --from -90d --chart`,
    'trident catalog products --all -o ndjson > products.ndjson',
  ]);
  group.addHelpText('after', 'The product ids in the examples are from the catalog of `trident sandbox`.');
}
