import { Option } from '@commander-js/extra-typings';
import { defineCommand, type GroupCommand, type OptionsOf } from '../../command.js';
import type { Context } from '../../context.js';
import { SNAPSHOT_COLUMNS, SNAPSHOT_FIELDS } from '../columns.js';
import { addListOptions, printList } from '../list.js';
import { OBSERVED_SORTS, productId } from '../validate.js';
import { oneStore } from '../options.js';
import { SANDBOX_PRODUCT } from '../examples.js';

const define = (group: GroupCommand) =>
  addListOptions(
    group
      .command('snapshots')
      .summary('list the price and stock history of one product')
      .description('List the recorded snapshots of a product: prices, stock, and the interval each one held.')
      .argument('<id>', 'canonical product id')
      .option('--store <name>', 'only this store (parser_name)', oneStore)
      .option('--source-id <id>', "only this source id (the store's own product id)")
      .addOption(new Option('--sort <order>', 'order of the rows (default observed_at_desc)').choices(OBSERVED_SORTS)),
  );

export type SnapshotsOptions = OptionsOf<typeof define>;

export async function run(ctx: Context, opts: SnapshotsOptions, id: string): Promise<void> {
  const product = productId(id);
  await printList(ctx, opts, {
    noun: 'snapshots',
    columns: SNAPSHOT_COLUMNS,
    fields: SNAPSHOT_FIELDS,
    store: opts.store,
    fetch: (client, page) => client.snapshots(product, { parser_name: opts.store, source_id: opts.sourceId, sort: opts.sort, ...page }),
  });
}

export const { register, definition } = defineCommand({
  define,
  examples: [
    `trident catalog snapshots ${SANDBOX_PRODUCT} --store fixprice`,
    `trident catalog snapshots ${SANDBOX_PRODUCT} --all -o csv > history.csv`,
  ],
  columns: SNAPSHOT_FIELDS,
  run,
});
