import { defineCommand, type GroupCommand, type OptionsOf } from '../../command.js';
import type { Context } from '../../context.js';
import { addConnectionOptions, connect } from '../connection.js';
import { requireId } from '../ids.js';

const define = (group: GroupCommand) =>
  addConnectionOptions(
    group.command('get').summary('show one project').description('Show every field of one project.').argument('<id>', 'project id'),
  );

export async function run(ctx: Context, opts: OptionsOf<typeof define>, idText: string): Promise<void> {
  const id = requireId(idText, 'project id');
  const { client } = await connect(ctx, opts);
  await ctx.output.object(await client.getProject(id));
}

export const { register, definition } = defineCommand({
  define,
  examples: ['trident time projects get 57', 'trident time projects get 57 -o json'],
  run,
});
