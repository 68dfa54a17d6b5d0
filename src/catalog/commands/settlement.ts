import { defineCommand, type GroupCommand, type OptionsOf } from '../../command.js';
import type { Context } from '../../context.js';
import { addConnectionOptions, connect } from '../connection.js';
import { integerId } from '../validate.js';

const define = (group: GroupCommand) =>
  addConnectionOptions(
    group
      .command('settlement')
      .summary('show one settlement')
      .description('Show one settlement (a town or city) by its numeric id.')
      .argument('<id>', 'settlement id (a whole number)'),
  );

export async function run(ctx: Context, opts: OptionsOf<typeof define>, id: string): Promise<void> {
  const settlement = integerId(id, 'settlement');
  const client = await connect(ctx, opts);
  await ctx.output.object(await client.settlement(settlement));
}

export const { register, definition } = defineCommand({
  define,
  examples: ['trident catalog settlement 3', 'trident catalog settlement 3 -o json'],
  run,
});
