import { defineCommand, type GroupCommand, type OptionsOf } from '../../command.js';
import type { Context } from '../../context.js';
import { usageError } from '../../core/errors.js';
import { addConnectionOptions, connect } from '../connection.js';
import { requireId } from '../ids.js';
import { addProjectFieldOptions, projectForm } from '../project-fields.js';

const define = (group: GroupCommand) =>
  addConnectionOptions(
    addProjectFieldOptions(
      group
        .command('update')
        .summary('change fields of a project')
        .description(
          'Change the given fields of a project (POST /projects/<id>); fields not given stay as they are. --active false archives it.',
        )
        .argument('<id>', 'project id'),
      { nameRequired: false },
    ),
  );

export type UpdateOptions = OptionsOf<typeof define>;

/** A partial update: only the fields given as flags are sent, so nothing else changes. */
export async function run(ctx: Context, opts: UpdateOptions, idText: string): Promise<void> {
  const id = requireId(idText, 'project id');
  const form = projectForm(opts);
  if (Object.keys(form).length === 0) {
    throw usageError(
      'nothing to update',
      'pass at least one of --name, --description, --active, --privacy, --customer-id, --billable, --bill-by, --rate, --required-task, --template',
    );
  }
  const { client } = await connect(ctx, opts);
  const project = await client.updateProject(id, form);
  ctx.log.info(`updated project ${id}: ${Object.keys(form).join(', ')}`);
  await ctx.output.object(project);
}

export const { register, definition } = defineCommand({
  define,
  examples: [
    'trident time projects update 57 --name "Website relaunch 2"',
    'trident time projects update 57 --active false        # archive',
    'trident time projects update 57 --rate "" --billable false',
  ],
  run,
});
