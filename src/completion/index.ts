import { Argument, type Command, type CommandUnknownOpts } from '@commander-js/extra-typings';
import { examples, type Binder } from '../command.js';
import type { Context } from '../context.js';
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import { INSTALL_LINES, ZSH_FPATH } from './install.js';
import { completionModel } from './model.js';
import { completionTables } from './tables.js';
import { zshScript } from './zsh.js';

export const SHELLS = { bash: bashScript, zsh: zshScript, fish: fishScript } as const;
export type Shell = keyof typeof SHELLS;

/** The script for one shell, from the whole command tree (every group loaded). */
export function completionScript(program: CommandUnknownOpts, shell: Shell): string {
  return SHELLS[shell](completionTables(completionModel(program)));
}

export function register(group: Command, bind: Binder): void {
  group.description(
    'Print a shell completion script: commands, options and their fixed values, file names, and values that are the ' +
      "user's own (profiles, setting keys, the catalog's stores, key ids for keys delete), which the script asks trident " +
      'for with a 2 s timeout and no error shown.',
  );
  const command = group.addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(Object.keys(SHELLS)));
  command.action(
    bind(async (ctx: Context, _opts, shell: string) => {
      let root: CommandUnknownOpts = group;
      while (root.parent) root = root.parent;
      ctx.io.stdout.write(completionScript(root, shell as Shell));
    }),
  );
  examples(group, [INSTALL_LINES.bash, `${INSTALL_LINES.zsh}     # and ${ZSH_FPATH}`, INSTALL_LINES.fish]);
}
