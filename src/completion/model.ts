// The command tree as data for completion scripts: every command path with its subcommands and options.
import type { CommandUnknownOpts, Option } from '@commander-js/extra-typings';
import { columnsOf } from '../command.js';

export interface CompletionOption {
  /** `--output`, `-o` ... */
  names: string[];
  takesValue: boolean;
  /** Values to offer (enums). */
  choices?: string[];
  /** Offer file names. */
  file: boolean;
  /** Values asked of `trident __complete` when offered (see values.ts): profiles, stores. */
  dynamic?: string;
  description: string;
}

export interface CompletionNode {
  /** Words after `trident`, e.g. ['keys', 'list']. */
  path: string[];
  subcommands: Array<{ name: string; summary: string }>;
  /** The command's own options (global ones are in CompletionModel.globals). */
  options: CompletionOption[];
  /** Values of the first positional argument, where it is an enum. */
  argumentChoices?: string[];
  /**
   * Positional arguments whose values `trident __complete` gives: the kind, how many (0: any number), and at every
   * how many words they stand (config set: a setting every second word, a value between).
   */
  dynamicArguments?: DynamicArguments;
  /** The fields its --columns takes, offered one after another in its comma-separated list. */
  columns?: readonly string[];
}

export interface CompletionModel {
  nodes: CompletionNode[];
  /** Options that every command accepts. */
  globals: CompletionOption[];
}

/** Options whose values depend on the user's settings and services, by name. */
const DYNAMIC_OPTIONS: Record<string, string> = { '--profile': 'profiles', '--store': 'stores' };

export interface DynamicArguments {
  kind: string;
  count: number;
  every?: number;
}

/** Commands whose positional arguments do, by path. */
const DYNAMIC_ARGUMENTS: Record<string, DynamicArguments> = {
  'config get': { kind: 'settings', count: 1 },
  // <key> <value> pairs: a setting is offered for each key, nothing for a value.
  'config set': { kind: 'settings', count: 0, every: 2 },
  'config unset': { kind: 'settings', count: 1 },
  'config use': { kind: 'profiles', count: 1 },
  'keys delete': { kind: 'key-ids', count: 0 },
};

/** Options whose value is a path on disk. */
const FILE_ARGUMENT = /<(file|path|dir|file\|-)>/;

function toCompletionOption(option: Option): CompletionOption {
  return {
    names: [option.long, option.short].filter((name): name is string => Boolean(name)),
    takesValue: option.required || option.optional,
    choices: option.argChoices,
    file: FILE_ARGUMENT.test(option.flags),
    description: option.description,
    ...(option.long && DYNAMIC_OPTIONS[option.long] ? { dynamic: DYNAMIC_OPTIONS[option.long] } : {}),
  };
}

export function completionModel(program: CommandUnknownOpts): CompletionModel {
  const globals = [
    ...program.options.filter((option) => !option.hidden && option.long !== '--version').map(toCompletionOption),
    { names: ['--help', '-h'], takesValue: false, file: false, description: 'show help' },
  ];
  const nodes: CompletionNode[] = [];
  const visit = (command: CommandUnknownOpts, path: string[]) => {
    const own = path.length === 0 ? [] : command.options.filter((option) => !option.hidden).map(toCompletionOption);
    nodes.push({
      path,
      subcommands: command.commands
        .filter((sub) => sub.name() !== 'help')
        .map((sub) => ({ name: sub.name(), summary: sub.summary() || sub.description() })),
      options: own,
      argumentChoices: command.registeredArguments[0]?.argChoices,
      ...(DYNAMIC_ARGUMENTS[path.join(' ')] ? { dynamicArguments: DYNAMIC_ARGUMENTS[path.join(' ')] } : {}),
      ...(columnsOf(command) ? { columns: columnsOf(command) } : {}),
    });
    for (const sub of command.commands) if (sub.name() !== 'help') visit(sub, [...path, sub.name()]);
  };
  visit(program, []);
  return { nodes, globals };
}
