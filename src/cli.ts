// The commander program: global options (valid before or after the command's name), and the command groups,
// each loaded only when the command line names it, so that `trident --help` and `--version` cost little more
// than Node itself.
import { Command, CommanderError, type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Binder, Group } from './command.js';
import { makeBinder } from './command.js';
import { withGlobalOptions } from './global-options.js';
import type { ContextDeps } from './context.js';
import { keyringLeftWaiting } from './core/credentials/keyring.js';
import { ExitCode, errorLines } from './core/errors.js';
import { wrapHelp } from './core/term/help-wrap.js';
import { VERSION } from './core/version.js';
import { environmentHelp } from './environment.js';
import { Interrupts } from './core/term/interrupts.js';
import { reportError } from './core/term/report-error.js';
import { StdoutWatch, stdoutWriteError } from './core/term/stdout-failure.js';
import { whenStdioCreated } from './core/term/stdio-created.js';
import { eraseStatusLine } from './core/term/status-line.js';

interface GroupEntry {
  name: string;
  summary: string;
  load: () => Promise<Group>;
}

export const GROUPS: GroupEntry[] = [
  { name: 'keys', summary: 'manage RSA API keys: list, create, generate, delete, rotate', load: () => import('./keys/index.js') },
  { name: 'time', summary: 'time tracker: log in, projects, customers, logged time', load: () => import('./time/index.js') },
  {
    name: 'catalog',
    summary: 'read the product catalog: products, counts, price dynamics, categories, settlements',
    load: () => import('./catalog/index.js'),
  },
  { name: 'config', summary: 'show and change settings and profiles', load: () => import('./config/index.js') },
  {
    name: 'status',
    summary: 'show what is configured for each service, from where, and whether it works',
    load: () => import('./status/index.js'),
  },
  { name: 'api', summary: 'send one raw request to a service with its own authentication', load: () => import('./api/index.js') },
  { name: 'sandbox', summary: 'run local sandbox versions of the three services', load: () => import('./sandbox/index.js') },
  { name: 'completion', summary: 'print a shell completion script (bash, zsh, fish)', load: () => import('./completion/index.js') },
  { name: 'version', summary: 'print the version with Node, platform and arch', load: () => import('./version.js') },
];

const HELP_EXAMPLES = `
Examples:
  $ trident keys list
  $ trident keys rotate --yes -o json
  $ trident time projects --status all
  $ trident catalog count --store fixprice --region москва
  $ trident sandbox            # local services to try everything on

Exit codes: 0 ok, 1 bug, 2 usage, 3 cancelled, 4 auth, 5 not found, 6 rejected,
7 rate limited, 8 service or network failure, 9 policy check failed,
10 rotation rolled back (a hook failed; old key in use), 130 interrupted.
`;

export function buildProgram() {
  const program = withGlobalOptions(
    new Command('trident')
      .description('One command-line tool for API keys, time tracking and the product catalog.')
      .version(VERSION, '-V, --version', 'print the version')
      .helpOption('-h, --help', 'show help'),
  )
    .addHelpText('after', HELP_EXAMPLES)
    // commander's own help command reads only the first name (`help keys list` showed `keys`): ours is
    // added by registerGroups, after the groups, so that it lists last.
    .helpCommand(false)
    // A bad --jq expression exits 2 before the command sends anything: compile it first.
    .hook('preAction', async (thisCommand) => {
      const { jq } = thisCommand.opts();
      if (jq !== undefined) await (await import('./core/term/jq.js')).checkJq(jq);
    });
  return program;
}

/** A word that may ask for help: help, --help, or -h alone or among other short options (-qh). */
const mayAskForHelp = (arg: string) => arg === 'help' || arg === '--help' || /^-[^-]*h/.test(arg);

/**
 * Registers every group: those named on the command line fully, the others with their summary only. A command
 * line that starts with a group and asks for no help is parsed within that group: the others are not defined.
 */
export async function registerGroups(program: Command, argv: string[], bind: Binder, all = false): Promise<void> {
  const named = new Set(argv);
  const loadAll = all || named.has('completion');
  const startsWithGroup = !loadAll && GROUPS.some((entry) => entry.name === argv[0]) && !argv.some(mayAskForHelp);
  for (const entry of GROUPS) {
    const wanted = loadAll || named.has(entry.name);
    if (startsWithGroup && !wanted) continue;
    const group = program
      .command(entry.name)
      .summary(entry.summary)
      .description(`${entry.summary[0]!.toUpperCase()}${entry.summary.slice(1)}.`);
    if (wanted) await (await entry.load()).register(group, bind, startsWithGroup ? argv[1] : undefined);
  }
  if (argv[0] === VALUES_COMMAND) addValuesCommand(program, bind);
  addHelpCommand(program);
  applyToTree(program);
}

/** What the completion scripts call for values that depend on the user's settings and services (completion/values.ts). */
export const VALUES_COMMAND = '__complete';

function addValuesCommand(program: Command, bind: Binder): void {
  program
    .command(VALUES_COMMAND, { hidden: true })
    .argument('<kind>')
    .argument('[words...]')
    .action(
      bind(async (ctx, opts, kind: string, words: string[]) => (await import('./completion/values.js')).run(ctx, opts, kind, ...words)),
    );
}

/** `trident help <group> [<command>...]`: the help of that command, as its --help shows it; `help options`: the global options. */
function addHelpCommand(program: Command): void {
  program
    .command('help')
    .summary('show help for a command, the global options (help options) or the environment variables (help environment)')
    .description(
      'Show the help of a command: "trident help keys list" is "trident keys list --help". "trident help options" shows the global options, "trident help environment" every environment variable trident reads or sets for hooks.',
    )
    .argument('[command...]', 'a group, then a command of it; or options')
    .action((names: string[]) => {
      const topic = names.length === 1 ? TOPICS[names[0]!] : undefined;
      if (topic) program.configureOutput().writeOut!(topic(program));
      else commandAt(program, names).help();
    });
}

/** `trident help <topic>`: help that belongs to no one command. */
const TOPICS: Record<string, (program: Command) => string> = {
  options: globalOptionsHelp,
  environment: () => environmentHelp(),
};

/** Where each command's help points for the global options, which only `trident --help` lists. */
const GLOBAL_OPTIONS_POINTER = 'Global options (--profile, -o, --jq, --columns, -q, ...): trident help options\n';

/** The options of `trident` itself, which every command takes before or after its name. */
function globalOptionsHelp(program: Command): string {
  const helper = program.createHelp();
  const width = helper.longestOptionTermLength(program, helper);
  const items = helper
    .visibleOptions(program)
    .map((option) => helper.formatItem(helper.optionTerm(option), width, helper.optionDescription(option), helper));
  return ["Global options, before or after any command's name:", '', ...items, ''].join('\n');
}

/** The command a path of names leads to; an unknown name is a usage error, as after any other command. */
function commandAt(program: Command, names: string[]): CommandUnknownOpts {
  let command: CommandUnknownOpts = program;
  for (const name of names) {
    const next = command.commands.find((sub) => sub.name() === name || sub.aliases().includes(name));
    if (!next || next.name() === 'help')
      program.error(`unknown command '${name}'\n(${knownCommands(command)})`, {
        exitCode: ExitCode.usage,
        code: 'commander.unknownCommand',
      });
    command = next;
  }
  return command;
}

function knownCommands(command: CommandUnknownOpts): string {
  const path = [];
  for (let at: CommandUnknownOpts | null = command; at; at = at.parent) path.unshift(at.name());
  const names = command.commands.map((sub) => sub.name()).filter((name) => name !== 'help');
  return names.length === 0 ? `"${path.join(' ')}" has no commands` : `commands of "${path.join(' ')}": ${names.join(', ')}`;
}

/**
 * Below this many columns left for descriptions commander stops wrapping them altogether (its default, 40,
 * left `time --help` unwrapped at 80 columns beside its long `customer-update` line): wrap down to this.
 */
const MIN_DESCRIPTION_WIDTH = 20;

/** `trident keys delete [options] <api_key...>` */
function usageLine(command: CommandUnknownOpts): string {
  const names = [];
  for (let at: CommandUnknownOpts | null = command; at; at = at.parent) names.unshift(at.name());
  return `${names.join(' ')} ${command.usage()}`;
}

/** Settings commander copies only through .command(): make sure every command has them. */
export function applyToTree(command: CommandUnknownOpts): void {
  command.exitOverride();
  // A usage error (a missing argument, an unknown option, a bad choice) ends with the command's usage line.
  const output = command.configureOutput();
  const outputError = output.outputError;
  if (outputError && command.parent)
    command.configureOutput({
      ...output,
      outputError: (text, write) => outputError(`${text.trimEnd()}\n(usage: ${usageLine(command)})\n`, write),
    });
  command.showSuggestionAfterError(true);
  command.configureHelp({ sortSubcommands: false, minWidthToWrap: MIN_DESCRIPTION_WIDTH });
  if (command.parent && command.name() !== 'help') command.addHelpText('after', GLOBAL_OPTIONS_POINTER);
  for (const sub of command.commands) applyToTree(sub);
}

/** The width help is wrapped to: the terminal's, else 80 (as commander does). */
const helpWidth = (stream: { isTTY?: boolean; columns?: number }) => (stream.isTTY && stream.columns ? stream.columns : 80);

export async function main(argv: string[], given: ContextDeps = { io: process, env: process.env }): Promise<number> {
  const code = await runMain(argv, given);
  // A keyring read past its deadline holds a thread Node would wait for before exiting.
  if (given.io === process && keyringLeftWaiting()) process.exit(code);
  return code;
}

async function runMain(argv: string[], given: ContextDeps): Promise<number> {
  // This invocation's own: the process's handlers below consult them, the command reaches them through its Context.
  const interrupts = given.interrupts ?? new Interrupts();
  const stdoutWatch = given.stdoutWatch ?? new StdoutWatch();
  const deps: ContextDeps = { ...given, interrupts, stdoutWatch };
  const { io } = deps;
  let exitCode = 0;
  const program = buildProgram();
  program.configureOutput({
    // Commander writes only help through these (errors go through outputError): wrapped to the terminal.
    writeOut: (text) => io.stdout.write(wrapHelp(text, helpWidth(io.stdout))),
    writeErr: (text) => io.stderr.write(wrapHelp(text, helpWidth(io.stderr))),
    // Commander's "(Did you mean --x?)" and the usage line applyToTree adds come on lines of their own: they
    // become the hint. An error stays one line, however long: it is written as it is, not wrapped.
    outputError: (text) => {
      const [first = '', ...rest] = text
        .replace(/^error: /, '')
        .trimEnd()
        .split('\n');
      const hint = rest
        .map((line) => line.trim().replace(/^\((.*)\)$/, '$1'))
        .filter(Boolean)
        .map((line) => `${line[0]!.toLowerCase()}${line.slice(1)}`)
        .join('; ')
        .replace(/\?; /g, '? ');
      io.stderr.write(errorLines(first, hint || undefined));
    },
  });
  // Ctrl-C, SIGTERM (a CI job cancelled, `timeout`) and SIGHUP (the terminal or ssh session gone): exit 130, unless work that must not be cut in half
  // is running, or the command stops on its own terms (the sandbox): see core/term/interrupts.ts.
  const onInterrupt = (signal: NodeJS.Signals) => {
    // On a terminal "^C" is left on the line: start a new one, or erase it with the status line that was there.
    const newLine = io.stderr.isTTY && !eraseStatusLine(io.stderr) ? '\n' : '';
    const decision = interrupts.decide();
    if (!decision.stop) {
      if (decision.note) io.stderr.write(`${newLine}trident: ${decision.note}\n`);
      return;
    }
    io.stderr.write(`${newLine}${errorLines(`interrupted${signal === 'SIGINT' ? '' : ` (${signal})`}`, interrupts.hint())}`);
    process.exit(ExitCode.interrupted);
  };
  if (io === process) {
    process.on('SIGINT', onInterrupt);
    process.on('SIGTERM', onInterrupt);
    process.on('SIGHUP', onInterrupt);
    // stderr going away (`2>&1 | tee log` and the tee killed) must not crash a command, least of all one
    // finishing work an interrupt waits for: messages that cannot be shown are dropped.
    whenStdioCreated('stderr', (stderr) => stderr.on('error', () => undefined));
    // `trident ... | head` closes the pipe early: that is not an error (see core/term/stdout-failure.ts).
    process.stdout.on('error', (error: NodeJS.ErrnoException) => {
      const exit = stdoutWatch.onError(error);
      if (exit === undefined) return;
      if (exit !== ExitCode.ok) {
        const problem = stdoutWriteError(error);
        io.stderr.write(errorLines(problem.message, problem.hint));
      }
      process.exit(exit);
    });
  }
  const debug = argv.includes('--debug') || deps.env.TRIDENT_DEBUG === '1';
  try {
    await registerGroups(
      program,
      argv.slice(2),
      makeBinder(
        deps,
        (code) => (exitCode = code),
        () => program.opts(),
      ),
    );
    await program.parseAsync(argv);
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has printed its message already (see configureOutput above).
      return error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.exitCode === 0
        ? ExitCode.ok
        : ExitCode.usage;
    }
    return reportError(error, io.stderr, debug);
  } finally {
    if (io === process) {
      process.off('SIGINT', onInterrupt);
      process.off('SIGTERM', onInterrupt);
      process.off('SIGHUP', onInterrupt);
    }
  }
}
