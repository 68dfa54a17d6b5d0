import { defineCommand, type GroupCommand, type OptionsOf } from '../../command.js';
import type { Context } from '../../context.js';
import { addConnectionOptions, connect } from '../connection.js';
import { integerId } from '../validate.js';

const define = (group: GroupCommand) =>
  addConnectionOptions(
    group
      .command('category')
      .summary('show one category')
      .description('Show one category by its numeric id.')
      .argument('<id>', 'category id (a whole number)'),
  );

export async function run(ctx: Context, opts: OptionsOf<typeof define>, id: string): Promise<void> {
  const category = integerId(id, 'category');
  const client = await connect(ctx, opts);
  await ctx.output.object(await client.category(category));
}

export const { register, definition } = defineCommand({
  define,
  examples: ['trident catalog category 12', 'trident catalog category 12 -o json'],
  run,
});
