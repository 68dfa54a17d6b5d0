import { Option } from '@commander-js/extra-typings';
import { defineCommand, type GroupCommand, type OptionsOf } from '../../command.js';
import type { Context } from '../../context.js';
import { SOURCE_COLUMNS, SOURCE_FIELDS } from '../columns.js';
import { addListOptions, printList } from '../list.js';
import { OBSERVED_SORTS, productId } from '../validate.js';
import { SANDBOX_PRODUCT } from '../examples.js';

const define = (group: GroupCommand) =>
  addListOptions(
    group
      .command('sources')
      .summary('list the store rows of one product')
      .description('List where a product is sold: one row per store and source id, with prices, stock, category and settlement.')
      .argument('<id>', 'canonical product id')
      .addOption(new Option('--sort <order>', 'order of the rows (default observed_at_desc)').choices(OBSERVED_SORTS)),
  );

export type SourcesOptions = OptionsOf<typeof define>;

export async function run(ctx: Context, opts: SourcesOptions, id: string): Promise<void> {
  const product = productId(id);
  await printList(ctx, opts, {
    noun: 'sources',
    columns: SOURCE_COLUMNS,
    fields: SOURCE_FIELDS,
    fetch: (client, page) => client.sources(product, { sort: opts.sort, ...page }),
  });
}

export const { register, definition } = defineCommand({
  define,
  examples: [`trident catalog sources ${SANDBOX_PRODUCT}`, `trident catalog sources ${SANDBOX_PRODUCT} -o json`],
  columns: SOURCE_FIELDS,
  run,
});
