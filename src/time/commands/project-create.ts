import { defineCommand, type GroupCommand, type OptionsOf } from '../../command.js';
import type { Context } from '../../context.js';
import { ExitCode, TridentError, UNKNOWN_OUTCOME, outcomeUnknown, usageError } from '../../core/errors.js';
import { addConnectionOptions, connect } from '../connection.js';
import { addProjectFieldOptions, projectForm } from '../project-fields.js';

const define = (group: GroupCommand) =>
  addConnectionOptions(
    addProjectFieldOptions(
      group
        .command('create')
        .summary('create a project')
        .description('Create a project (POST /projects) and show it as the service stored it.'),
      { nameRequired: true },
    ),
  );

export type CreateOptions = OptionsOf<typeof define>;

export async function run(ctx: Context, opts: CreateOptions): Promise<void> {
  const form = projectForm(opts);
  if (form.name === undefined) throw usageError('a new project needs --name');
  const { client } = await connect(ctx, opts);
  const project = await client.createProject(form).catch((error: unknown) => {
    throw outcomeUnknown(error) ? unknownCreate(form.name!, error) : error;
  });
  ctx.log.info(`created project ${project.id}`);
  await ctx.output.object(project);
}

/** The request was sent and no answer says what became of it: running the command again may make a second project. */
function unknownCreate(name: string, error: TridentError): TridentError {
  return new TridentError(ExitCode.unavailable, `outcome unknown for the new project "${name}": ${error.message}`, {
    code: UNKNOWN_OUTCOME,
    status: error.status,
    requestId: error.requestId,
    hint: `check with: trident time projects --status all (look for "${name}") before creating it again`,
    cause: error,
  });
}

export const { register, definition } = defineCommand({
  define,
  examples: [
    'trident time projects create --name "Website relaunch"',
    'trident time projects create --name "Audit 2026" --customer-id 7 --billable true --rate 120 --privacy public',
  ],
  run,
});
