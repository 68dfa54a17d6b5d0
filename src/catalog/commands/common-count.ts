import { Option } from '@commander-js/extra-typings';
import { defineCommand, type GroupCommand, type OptionsOf } from '../../command.js';
import type { Context } from '../../context.js';
import { connect } from '../connection.js';
import { addStoreRegionOptions, echoed } from '../store-region.js';
import { warnUnknownStores } from '../unknown-store.js';
import { SCOPES, required } from '../validate.js';

const define = (group: GroupCommand) =>
  addStoreRegionOptions(
    group
      .command('common-count')
      .summary('count products common to all chosen stores or regions')
      .description(
        'Count the products present in every one of the compared stores (--scope stores) or regions (--scope regions). ' +
          'With --scope stores and no --store, every store in the data is compared; --region then filters. ' +
          'With --scope regions, --region chooses the regions compared; a region without data makes the count 0. ' +
          "A region is the settlements' normalized region (region_normalized in trident catalog settlements: москва, санкт-петербург, ...).",
      )
      .addOption(new Option('--scope <scope>', 'what to compare (required)').choices(SCOPES)),
    'a store to compare (or, with --scope regions, to filter by)',
    'a region to compare (or, with --scope stores, to filter by)',
  );

export type CommonCountOptions = OptionsOf<typeof define>;

export async function run(ctx: Context, opts: CommonCountOptions): Promise<void> {
  const scope = required(opts.scope, '--scope', SCOPES.join(' or '));
  const client = await connect(ctx, opts);
  const answer = await client.commonCount(scope, { store: opts.store, region: opts.region });
  if (answer.common_products_count === 0) await warnUnknownStores(ctx, client, opts.store);
  const requiredKey = scope === 'stores' ? 'required_stores' : 'required_regions';
  await ctx.output.object(answer, [
    { header: 'scope', value: (a) => a.scope },
    { header: 'common products', value: (a) => a.common_products_count },
    { header: `required ${scope}`, value: (a) => a[requiredKey] },
    echoed('stores', 'stores'),
    echoed('regions', 'regions'),
  ]);
}

export const { register, definition } = defineCommand({
  define,
  examples: [
    'trident catalog common-count --scope stores',
    'trident catalog common-count --scope stores --store fixprice --store chizhik --region москва',
    'trident catalog common-count --scope regions --region москва --region санкт-петербург -o json',
  ],
  run,
});
