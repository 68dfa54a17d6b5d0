// The parse seam: a command's definition given a command line in-process, as trident would parse it, returning
// what its run would get, or the usage error the user would see, without running it.
import type { OptionValues } from '@commander-js/extra-typings';
import { CommanderError } from '@commander-js/extra-typings';
import { applyToTree, buildProgram } from '../../src/cli.js';
import type { CommandModule } from '../../src/command.js';
import { ExitCode, TridentError } from '../../src/core/errors.js';
import type { GlobalOptions } from '../../src/global-options.js';

export interface Parsed<A, O> {
  opts: O;
  args: A;
  globals: GlobalOptions;
}

/** The usage error the user would see: its exit code and its line. */
export class UsageFailure extends Error {
  constructor(
    readonly exitCode: number,
    message: string,
  ) {
    super(message);
  }
}

/** Parses `argv` (what follows `trident <group> <command>`) with the command of `module`. */
export async function parseCommand<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  module: CommandModule<A, O, G>,
  argv: string[],
): Promise<Parsed<A, O>> {
  const program = buildProgram();
  // Before the group is made: commands copy their parent's output settings when they are made.
  program.configureOutput({ writeOut: () => undefined, writeErr: () => undefined, outputError: () => undefined });
  const group = program.command('group');
  let parsed: Parsed<A, O> | undefined;
  module.register(group, (_run) => async (...values) => {
    parsed = { opts: values[values.length - 2] as O, args: values.slice(0, -2) as A, globals: program.opts() };
  });
  applyToTree(program);
  const name = group.commands[0]!.name();
  try {
    await program.parseAsync(['group', name, ...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) throw new UsageFailure(ExitCode.usage, error.message.replace(/^error: /, ''));
    if (error instanceof TridentError) throw new UsageFailure(error.exitCode, error.message);
    throw error;
  }
  if (!parsed) throw new Error(`${name} did not run: ${argv.join(' ')}`);
  return parsed;
}

/** The usage error `argv` gets, or undefined when it parses. */
export async function usageFailure(
  module: Pick<CommandModule<never, never, never>, 'register'>,
  argv: string[],
): Promise<UsageFailure | undefined> {
  try {
    await parseCommand(module as CommandModule<unknown[], OptionValues, OptionValues>, argv);
    return undefined;
  } catch (error) {
    if (error instanceof UsageFailure) return error;
    throw error;
  }
}
