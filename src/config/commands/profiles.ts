import { defineCommand, type GroupCommand } from '../../command.js';
import type { Context } from '../../context.js';

const define = (group: GroupCommand) =>
  group
    .command('profiles')
    .summary('list the saved profiles')
    .description(
      'List the profiles saved in the settings file, marking the current one (--profile, else TRIDENT_PROFILE, else the one `trident config use` chose, else "default").',
    );

export async function run(ctx: Context): Promise<void> {
  const names = ctx.settings.store.profiles();
  if (names.length === 0) ctx.log.info(`no profiles saved yet (settings file: ${ctx.settings.store.path})`);
  await ctx.output.list(
    names,
    [
      { header: 'profile', value: (name: string) => name },
      { header: 'current', value: (name) => (name === ctx.profile ? '*' : '') },
    ],
    (name) => ({ profile: name, current: name === ctx.profile }),
  );
}

export const { register, definition } = defineCommand({
  define,
  examples: ['trident config profiles', 'trident config profiles -o json'],
  run,
});
