import { defineCommand, type GroupCommand, type OptionsOf } from '../../command.js';
import type { Context } from '../../context.js';
import { connect } from '../connection.js';
import { addStoreRegionOptions, echoed } from '../store-region.js';
import { warnUnknownStores } from '../unknown-store.js';

const define = (group: GroupCommand) =>
  addStoreRegionOptions(
    group
      .command('count')
      .summary('count distinct products')
      .description(
        'Count distinct products, optionally only those sold in the given stores and regions. ' +
          'Shows the stores and regions as the service normalized them (trimmed, lower-cased, de-duplicated). ' +
          "A region is the settlements' normalized region (region_normalized in trident catalog settlements: москва, санкт-петербург, ...).",
      ),
    'only products from this store',
    'only products sold in this region',
  );

export async function run(ctx: Context, opts: OptionsOf<typeof define>): Promise<void> {
  const client = await connect(ctx, opts);
  const answer = await client.count({ store: opts.store, region: opts.region });
  if (answer.products_count === 0) await warnUnknownStores(ctx, client, opts.store);
  await ctx.output.object(answer, [
    { header: 'products', value: (a) => a.products_count },
    echoed('stores', 'stores'),
    echoed('regions', 'regions'),
  ]);
}

export const { register, definition } = defineCommand({
  define,
  examples: [
    'trident catalog count',
    'trident catalog count --store fixprice --store chizhik --region москва',
    'trident catalog count -o json',
  ],
  run,
});
