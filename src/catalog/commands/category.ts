import type { Command } from '@commander-js/extra-typings';
import { examples, type Binder } from '../../command.js';
import type { Context } from '../../context.js';
import { addConnectionOptions, connect, type ConnectionOptions } from '../connection.js';
import { integerId } from '../validate.js';

export async function run(ctx: Context, opts: ConnectionOptions, id: string): Promise<void> {
  const category = integerId(id, 'category');
  const client = await connect(ctx, opts);
  await ctx.output.object(await client.category(category));
}

export function register(parent: Command, bind: Binder): void {
  const command = parent
    .command('category')
    .summary('show one category')
    .description('Show one category by its numeric id.')
    .argument('<id>', 'category id (a whole number)');
  examples(addConnectionOptions(command).action(bind(run)), ['trident catalog category 12', 'trident catalog category 12 -o json']);
}
