import type { Command } from '@commander-js/extra-typings';
import { examples, type Binder } from '../../command.js';
import type { Context } from '../../context.js';
import { addConnectionOptions, connect, type ConnectionOptions } from '../connection.js';
import { integerId } from '../validate.js';

export async function run(ctx: Context, opts: ConnectionOptions, id: string): Promise<void> {
  const settlement = integerId(id, 'settlement');
  const client = await connect(ctx, opts);
  await ctx.output.object(await client.settlement(settlement));
}

export function register(parent: Command, bind: Binder): void {
  const command = parent
    .command('settlement')
    .summary('show one settlement')
    .description('Show one settlement (a town or city) by its numeric id.')
    .argument('<id>', 'settlement id (a whole number)');
  examples(addConnectionOptions(command).action(bind(run)), ['trident catalog settlement 3', 'trident catalog settlement 3 -o json']);
}
