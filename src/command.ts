// How a command is written: one definition (defineCommand) holds the command's name, summary, arguments,
// options, examples and run. Its options are declared once, in commander's chain, and TypeScript infers the
// type run gets from that chain (@commander-js/extra-typings), so a misspelt option does not compile. A
// binder turns run into commander's action with a Context built from the global options.
import type { Command, CommandUnknownOpts, OptionValues } from '@commander-js/extra-typings';
import { createContext, type Context, type ContextDeps, type GlobalOptions } from './context.js';
import { explainMissingSetting } from './core/files/missing-setting.js';
import { withFileTrust } from './core/files/file-trust.js';
import { usageError } from './core/errors.js';

/** A group's command, as a command's definition adds itself to it. */
export type GroupCommand = Command;

export type Run<A extends unknown[], O> = (ctx: Context, opts: O, ...args: A) => Promise<number | void>;

/** Runs a command: `opts` and `args` as commander parsed them; the exit code it returns is recorded by main(). */
export type Binder = <A extends unknown[], O>(run: Run<A, O>) => (...parsed: [...A, O, CommandUnknownOpts]) => Promise<void>;

export interface Group {
  /** Defines the group's commands on `group`: only `named` when the command line names one and asks for no help. */
  register(group: GroupCommand, bind: Binder, named?: string): void | Promise<void>;
}

export interface CommandDefinition<A extends unknown[], O extends OptionValues, G extends OptionValues = OptionValues> {
  /** Adds the command to its group: name, summary, description, arguments and options, each declared once. */
  define(group: GroupCommand): Command<A, O, G>;
  /** Lines for the help's "Examples:" block, each one that works on the sandbox. */
  examples: string[];
  /** Help text below the examples. */
  after?: string;
  /** The fields of what it prints, as --columns takes them (the list its output is given): completion offers them. */
  columns?: readonly string[];
  run: Run<A, O>;
}

export interface CommandModule<A extends unknown[], O extends OptionValues, G extends OptionValues> {
  register(group: GroupCommand, bind: Binder): void;
  definition: CommandDefinition<A, O, G>;
}

/** The options a command's `define` gives its run, as commander parses them. */
export type OptionsOf<D extends (group: GroupCommand) => { opts(): OptionValues }> = ReturnType<ReturnType<D>['opts']>;

/**
 * One command: `define` declares it to commander (its options once, with their env vars, defaults, choices and
 * conflicts), `run` gets what commander parsed, typed from that declaration.
 */
export function defineCommand<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  definition: CommandDefinition<A, O, G>,
): CommandModule<A, O, G> {
  return {
    definition,
    register(group, bind) {
      const command = examples(definition.define(group).action(bind(definition.run)), definition.examples);
      if (definition.after) command.addHelpText('after', definition.after);
      if (definition.columns) declaredColumns.set(command, definition.columns);
    },
  };
}

const declaredColumns = new WeakMap<CommandUnknownOpts, readonly string[]>();

/** The fields a command's --columns takes, where its definition declares them. */
export function columnsOf(command: CommandUnknownOpts): readonly string[] | undefined {
  return declaredColumns.get(command);
}

export function makeBinder(deps: ContextDeps, setExitCode: (code: number) => void, globals: () => GlobalOptions): Binder {
  return <A extends unknown[], O>(run: Run<A, O>) =>
    async (...parsed: [...A, O, CommandUnknownOpts]) => {
      // Commander passes the arguments, then the command's options, then the command itself (unused).
      const opts = parsed[parsed.length - 2] as O;
      const args = parsed.slice(0, -2) as A;
      const { columns, header, ...rest } = globals();
      await withFileTrust(deps.env, async () => {
        const ctx = createContext(rest, deps);
        try {
          ctx.output.configure({
            columns,
            header,
            // A note may be several lines (wrapped to the terminal): each is written as it is.
            note: (message) => message.split('\n').forEach((line) => ctx.log.info(line)),
            timeZone: ctx.env.TZ,
          });
          const code = await run(ctx, opts, ...args);
          setExitCode(code ?? 0);
        } catch (error) {
          throw explainMissingSetting(error, ctx.profile, ctx.settings.store);
        } finally {
          await ctx.close();
        }
      });
    };
}

/** Adds an "Examples:" block to a command's help. */
export function examples<C extends CommandUnknownOpts>(command: C, lines: string[]): C {
  return command.addHelpText('after', `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`);
}

/**
 * An option parser that refuses a second occurrence: commander would silently keep the last value.
 * It throws while the command line is parsed, so before any request.
 */
export function once(flag: string, hint?: string): (value: string, previous: string | undefined) => string {
  return (value, previous) => {
    if (previous !== undefined) throw usageError(`${flag} given twice ("${previous}", then "${value}"): this command takes one`, hint);
    return value;
  };
}
