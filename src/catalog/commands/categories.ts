import { defineCommand, type GroupCommand, type OptionsOf } from '../../command.js';
import type { Context } from '../../context.js';
import { CATEGORY_COLUMNS, CATEGORY_FIELDS } from '../columns.js';
import { addListOptions, printList } from '../list.js';
import { integer } from '../validate.js';
import { oneStore } from '../options.js';

const define = (group: GroupCommand) =>
  addListOptions(
    group
      .command('categories')
      .summary("list the stores' categories")
      .description('List categories, most recently updated first.')
      .option('--store <name>', 'only this store (parser_name)', oneStore)
      .option('--depth <n>', 'only this depth in the tree')
      .option('--parent <uid>', "only children of this parent (the parent's source uid)")
      .option('--search <text>', "text in the category's title (the service's q)"),
  );

export type CategoriesOptions = OptionsOf<typeof define>;

export async function run(ctx: Context, opts: CategoriesOptions): Promise<void> {
  const query = { parser_name: opts.store, depth: integer(opts.depth, '--depth'), parent_source_uid: opts.parent, q: opts.search };
  await printList(ctx, opts, {
    noun: 'categories',
    columns: CATEGORY_COLUMNS,
    fields: CATEGORY_FIELDS,
    store: opts.store,
    fetch: (client, page) => client.categories({ ...query, ...page }),
  });
}

export const { register, definition } = defineCommand({
  define,
  examples: ['trident catalog categories --store fixprice --depth 1', 'trident catalog categories --parent fp-100 --all -o csv'],
  columns: CATEGORY_FIELDS,
  run,
});
