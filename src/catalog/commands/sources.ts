import { Option, type Command } from '@commander-js/extra-typings';
import { examples, type Binder } from '../../command.js';
import type { Context } from '../../context.js';
import { SOURCE_COLUMNS, SOURCE_FIELDS } from '../columns.js';
import { addListOptions, printList, type ListOptions } from '../list.js';
import { OBSERVED_SORTS, oneOf, productId } from '../validate.js';
import { SANDBOX_PRODUCT } from '../examples.js';

export interface SourcesOptions extends ListOptions {
  sort?: string;
}

export async function run(ctx: Context, opts: SourcesOptions, id: string): Promise<void> {
  const product = productId(id);
  const sort = oneOf(opts.sort, OBSERVED_SORTS, '--sort');
  await printList(ctx, opts, {
    noun: 'sources',
    columns: SOURCE_COLUMNS,
    fields: SOURCE_FIELDS,
    fetch: (client, page) => client.sources(product, { sort, ...page }),
  });
}

export function register(parent: Command, bind: Binder): void {
  const command = parent
    .command('sources')
    .summary('list the store rows of one product')
    .description('List where a product is sold: one row per store and source id, with prices, stock, category and settlement.')
    .argument('<id>', 'canonical product id')
    .addOption(new Option('--sort <order>', 'order of the rows (default observed_at_desc)').choices(OBSERVED_SORTS));
  examples(addListOptions(command).action(bind(run)), [
    `trident catalog sources ${SANDBOX_PRODUCT}`,
    `trident catalog sources ${SANDBOX_PRODUCT} -o json`,
  ]);
}
