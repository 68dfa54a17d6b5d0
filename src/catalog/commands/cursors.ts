import { defineCommand, type GroupCommand, type OptionsOf } from '../../command.js';
import type { Context } from '../../context.js';
import { CURSOR_COLUMNS, CURSOR_FIELDS } from '../columns.js';
import { addConnectionOptions, connect } from '../connection.js';
import { oneStore } from '../options.js';

const define = (group: GroupCommand) =>
  addConnectionOptions(
    group
      .command('cursors')
      .summary('show how far the converter has synchronized each store')
      .description("List the converter's synchronization cursors: per store, the last ingested time and product id.")
      .option('--store <name>', 'only this store (parser_name)', oneStore),
  );

export type CursorsOptions = OptionsOf<typeof define>;

export async function run(ctx: Context, opts: CursorsOptions): Promise<void> {
  ctx.output.checkColumns(CURSOR_FIELDS);
  const client = await connect(ctx, opts);
  await ctx.output.list(await client.cursors({ parser_name: opts.store }), CURSOR_COLUMNS, undefined, CURSOR_FIELDS);
}

export const { register, definition } = defineCommand({
  define,
  examples: ['trident catalog cursors', 'trident catalog cursors --store fixprice -o json'],
  columns: CURSOR_FIELDS,
  run,
});
