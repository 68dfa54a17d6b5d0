// What each group's help shows of its commands (src/subcommands.ts), taken from the CLI built with every
// command defined: the build gives it to the CLI it makes, whose groups define only the commands named.
import { fullProgram } from './render-help.mjs';

/** { group: { command: { description, term, aliases } } } for every group that has commands. */
export async function commandStubs(cli) {
  const program = await fullProgram(cli);
  const stubs = {};
  for (const group of program.commands) {
    if (group.commands.length === 0) continue;
    const help = group.createHelp();
    stubs[group.name()] = Object.fromEntries(
      group.commands.map((command) => [command.name(), { description: help.subcommandDescription(command), term: help.subcommandTerm(command), aliases: command.aliases() }]),
    );
  }
  return stubs;
}
