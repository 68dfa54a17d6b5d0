// `trident catalog`: the 13 read-only routes of the catalog service, one command each.
import { commandGroup } from '../subcommands.js';
import { SANDBOX_PRODUCT, SANDBOX_SERIES } from './examples.js';

const COMMANDS = [
  { name: 'health', load: () => import('./commands/health.js') },
  { name: 'products', load: () => import('./commands/products.js') },
  { name: 'product', load: () => import('./commands/product.js') },
  { name: 'sources', load: () => import('./commands/sources.js') },
  { name: 'snapshots', load: () => import('./commands/snapshots.js') },
  { name: 'count', load: () => import('./commands/count.js') },
  { name: 'common-count', load: () => import('./commands/common-count.js') },
  { name: 'dynamics', load: () => import('./commands/dynamics.js') },
  { name: 'categories', load: () => import('./commands/categories.js') },
  { name: 'category', load: () => import('./commands/category.js') },
  { name: 'settlements', load: () => import('./commands/settlements.js') },
  { name: 'settlement', load: () => import('./commands/settlement.js') },
  { name: 'cursors', load: () => import('./commands/cursors.js') },
];

export const { register } = commandGroup(COMMANDS, {
  examples: [
    'trident catalog products --search молоко --sort price_asc',
    'trident catalog count --store fixprice --store chizhik --region москва',
    `trident catalog dynamics ${SANDBOX_PRODUCT} ${SANDBOX_SERIES} --field price --interval 1d --from -90d --chart`,
    'trident catalog products --all -o ndjson > products.ndjson',
  ],
  after: 'The product ids in the examples are from the catalog of `trident sandbox`.',
});
