// The commands of a group (keys, time, catalog, config), each loaded and defined only when the command line
// names it: `keys list` neither loads nor defines rotate, create, generate or delete. The group's help still
// lists every command; those not named are stand-ins carrying what that list shows of the real definition
// (name, aliases, summary, usage term), which the build takes from the real definitions themselves
// (scripts/command-stubs.mjs). Where the build gave none (the sources run by the unit tests), all are defined.
import { Help, type Command } from 'commander';
import { examples, type Binder, type Group } from './command.js';

export interface CommandModule {
  register(parent: Command, bind: Binder): void;
}

export interface LazyCommand {
  name: string;
  load: () => Promise<CommandModule>;
}

/** Whether the command line may name this command (a name is enough: defining one too many is harmless). */
export type Wanted = ((name: string) => boolean) & {
  /**
   * The command line's first two words, when the first is a group and it asks for no help (`keys list -o json`).
   * Commander then parses within that group, and within that command if it is one: commands not named are not
   * defined at all, for their stand-ins serve only help listings and "did you mean".
   */
  readonly leading?: readonly string[];
};

/** What a group's help shows of one of its commands. */
export interface CommandStub {
  description: string;
  term: string;
  aliases: string[];
}

declare const __TRIDENT_COMMAND_STUBS__: Record<string, Record<string, CommandStub>> | undefined;
const STUBS = typeof __TRIDENT_COMMAND_STUBS__ === 'object' ? __TRIDENT_COMMAND_STUBS__ : undefined;

const stubTerms = new WeakMap<Command, string>();

export async function registerCommands(group: Command, bind: Binder, commands: LazyCommand[], wanted: Wanted): Promise<void> {
  const stubs = STUBS?.[group.name()];
  const stubOf = (command: LazyCommand) => {
    const stub = stubs?.[command.name];
    return stub && !wanted(command.name) && !stub.aliases.some(wanted) ? stub : undefined;
  };
  const modules = await Promise.all(commands.map((command) => (stubOf(command) ? undefined : command.load())));
  const [groupWord, commandWord] = wanted.leading ?? [];
  const standIns = groupWord !== group.name() || !commands.some((command) => command.name === commandWord || stubs?.[command.name]?.aliases.includes(commandWord!));
  commands.forEach((command, at) => {
    const stub = stubOf(command);
    if (!stub) return modules[at]!.register(group, bind);
    if (!standIns) return;
    const standIn = group.command(command.name).summary(stub.description);
    for (const alias of stub.aliases) standIn.alias(alias);
    stubTerms.set(standIn, stub.term);
  });
}

/** What a group's help adds below its commands: examples, and text before or after them. */
export interface GroupHelp {
  examples: string[];
  before?: string;
  after?: string;
}

/** A group (keys, time, catalog, config) of commands defined only when named, with its help. */
export function commandGroup(commands: LazyCommand[], help: GroupHelp): Group {
  return {
    async register(group, bind, wanted) {
      await registerCommands(group, bind, commands, wanted);
      if (help.before) group.addHelpText('after', help.before);
      examples(group, help.examples);
      if (help.after) group.addHelpText('after', help.after);
    },
  };
}

/** Help's term of a command in its group's list: a stand-in's is the real command's. */
export function subcommandTerm(this: Help, command: Command): string {
  return stubTerms.get(command) ?? Help.prototype.subcommandTerm.call(this, command);
}
