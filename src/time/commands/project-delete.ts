import { defineCommand, type GroupCommand, type OptionsOf } from '../../command.js';
import type { Context } from '../../context.js';
import { cancelledError } from '../../core/errors.js';
import { addConnectionOptions, connect } from '../connection.js';
import { requireId } from '../ids.js';

const define = (group: GroupCommand) =>
  addConnectionOptions(
    group
      .command('delete')
      .summary('delete a project')
      .description('Delete a project (DELETE /projects/<id>). Asks first on a terminal; pass --yes when there is none.')
      .argument('<id>', 'project id'),
  );

/** Asks first on a terminal; needs --yes otherwise (exit 3 with nothing sent). */
export async function run(ctx: Context, opts: OptionsOf<typeof define>, idText: string): Promise<void> {
  const id = requireId(idText, 'project id');
  const { client } = await connect(ctx, opts);
  if (!(await ctx.prompter.confirm(`Delete project ${id}? This cannot be undone.`))) throw cancelledError('not deleted');
  const { alreadyDeleted } = await client.deleteProject(id);
  ctx.log.info(alreadyDeleted ? `project ${id} was already deleted (the first attempt had done it)` : `deleted project ${id}`);
  await ctx.output.object({ id, deleted: true, already_deleted: alreadyDeleted });
}

export const { register, definition } = defineCommand({
  define,
  examples: ['trident time projects delete 61', 'trident time projects delete 61 --yes'],
  run,
});
