// What every command file uses to plug into commander: a binder that turns `run(ctx, opts, ...args)`
// into a commander action with a Context built from the global options, and help examples.
import type { Command } from 'commander';
import { createContext, type Context, type ContextDeps, type GlobalOptions } from './context.js';
import { explainMissingSetting } from './core/files/missing-setting.js';
import { usageError } from './core/errors.js';

export type Run<O> = (ctx: Context, opts: O, ...args: string[]) => Promise<number | void>;

/** Wraps a command's run() as a commander action; the exit code it returns is recorded by main(). */
export type Binder = <O>(run: Run<O>) => (...args: unknown[]) => Promise<void>;

export interface Group {
  /** Defines the group's commands on `group`: only `named` when the command line names one and asks for no help. */
  register(group: Command, bind: Binder, named?: string): void | Promise<void>;
}

export function makeBinder(deps: ContextDeps, setExitCode: (code: number) => void): Binder {
  return <O>(run: Run<O>) =>
    async (...args: unknown[]) => {
      const command = args.at(-1) as Command;
      const operands = args.slice(0, -2).flatMap((arg) => (Array.isArray(arg) ? (arg as string[]) : [arg as string]));
      const globals = command.optsWithGlobals<GlobalOptions & { columns?: string; header?: boolean }>();
      const ctx = createContext(globals, deps);
      try {
        ctx.output.configure({
          columns: globals.columns,
          header: globals.header,
          note: (message) => ctx.log.info(message),
          timeZone: ctx.env.TZ,
        });
        const code = await run(ctx, command.opts() as O, ...operands);
        setExitCode(code ?? 0);
      } catch (error) {
        throw explainMissingSetting(error, ctx.profile, ctx.settings.store);
      } finally {
        await ctx.close();
      }
    };
}

/** Adds an "Examples:" block to a command's help. */
export function examples(command: Command, lines: string[]): Command {
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
