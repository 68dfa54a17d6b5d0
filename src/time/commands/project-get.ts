import type { Command } from '@commander-js/extra-typings';
import { examples, type Binder } from '../../command.js';
import type { Context } from '../../context.js';
import { addConnectionOptions, connect, type ConnectionOptions } from '../connection.js';
import { requireId } from '../ids.js';

export async function run(ctx: Context, opts: ConnectionOptions, idText: string): Promise<void> {
  const id = requireId(idText, 'project id');
  const { client } = await connect(ctx, opts);
  await ctx.output.object(await client.getProject(id));
}

export function register(parent: Command, bind: Binder): void {
  const command = parent
    .command('get')
    .summary('show one project')
    .description('Show every field of one project.')
    .argument('<id>', 'project id');
  addConnectionOptions(command).action(bind(run));
  examples(command, ['trident time projects get 57', 'trident time projects get 57 -o json']);
}
