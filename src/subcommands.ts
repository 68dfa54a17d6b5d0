// The commands of a group (keys, time, catalog, config): each in a file of its own, imported when the group is
// defined, that is when the command line names the group or asks for help.
import type { Command } from '@commander-js/extra-typings';
import { examples, type Binder, type Group } from './command.js';

export interface CommandModule {
  register(parent: Command, bind: Binder): void;
}

export interface LazyCommand {
  name: string;
  load: () => Promise<CommandModule>;
}

/** What a group's help adds below its commands: examples, and text before or after them. */
export interface GroupHelp {
  examples: string[];
  before?: string;
  after?: string;
}

/** A group (keys, time, catalog, config) of commands, with its help. */
export function commandGroup(commands: LazyCommand[], help: GroupHelp): Group {
  return {
    async register(group, bind, named) {
      // A command line that names one of the group's commands (and asks for no help) defines that one alone, so
      // that the others' code never runs; help, a typo or an alias gets them all.
      const chosen = commands.filter((command) => command.name === named);
      const modules = await Promise.all((chosen.length > 0 ? chosen : commands).map((command) => command.load()));
      for (const module of modules) module.register(group, bind);
      if (help.before) group.addHelpText('after', help.before);
      examples(group, help.examples);
      if (help.after) group.addHelpText('after', help.after);
    },
  };
}
