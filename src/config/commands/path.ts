import { defineCommand, type GroupCommand } from '../../command.js';
import type { Context } from '../../context.js';
import { printBareOr } from '../print.js';

const define = (group: GroupCommand) =>
  group
    .command('path')
    .summary('print where the settings file is')
    .description(
      'Print the path of the settings file: $TRIDENT_CONFIG_DIR/settings.json, else $XDG_CONFIG_HOME/trident/settings.json, ' +
        'else ~/.config/trident/settings.json. The file may not exist yet: the first "trident config set" makes it.',
    );

export async function run(ctx: Context): Promise<void> {
  await printBareOr(ctx, ctx.settings.store.path, { path: ctx.settings.store.path });
}

export const { register, definition } = defineCommand({
  define,
  examples: ['trident config path', 'cat "$(trident config path)"'],
  run,
});
