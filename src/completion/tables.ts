// The lookup tables every completion script needs, as shell functions: subcommands of a command path,
// its options, the options that take a value, and the values (or files) an option takes.
import type { CompletionModel, CompletionNode, CompletionOption } from './model.js';

/** Rows of a lookup: a key (a command path, or `path|--option`) and the words it gives. */
export interface Table {
  name: string;
  rows: Array<[key: string, value: string]>;
}

/** The key that stands for "any command": global options are looked up under it. */
export const GLOBAL_KEY = '__global__';

const names = (options: CompletionOption[]) => options.flatMap((o) => o.names).join(' ');
const valued = (options: CompletionOption[]) => names(options.filter((o) => o.takesValue));

export function completionTables({ nodes, globals }: CompletionModel): Table[] {
  const key = (node: CompletionNode) => node.path.join(' ');
  const values = new Map<string, string>();
  const addValues = (prefix: string, options: CompletionOption[]) => {
    for (const option of options) {
      if (!option.takesValue) continue;
      const value = option.choices
        ? option.choices.join(' ')
        : option.dynamic
          ? `__dynamic:${option.dynamic}__`
          : option.file
            ? '__files__'
            : '__any__';
      for (const name of option.names) values.set(`${prefix}|${name}`, value);
    }
  };
  addValues(GLOBAL_KEY, globals);
  for (const node of nodes) addValues(key(node), node.options);
  // --columns is trident's own option; the fields it takes are the command's: a list, one after a comma.
  for (const node of nodes) if (node.columns) values.set(`${key(node)}|--columns`, `__list:${node.columns.join(' ')}__`);
  const words = (node: CompletionNode) => [...node.subcommands.map((s) => s.name), ...(node.argumentChoices ?? [])].join(' ');
  return [
    { name: 'subcommands', rows: nodes.filter((n) => words(n) !== '').map((n) => [key(n), words(n)]) },
    {
      name: 'options',
      rows: [
        [GLOBAL_KEY, names(globals)],
        ...nodes.filter((n) => n.options.length > 0).map((n): [string, string] => [key(n), names(n.options)]),
      ],
    },
    {
      name: 'valued_options',
      rows: [
        [GLOBAL_KEY, valued(globals)],
        ...nodes.filter((n) => valued(n.options) !== '').map((n): [string, string] => [key(n), valued(n.options)]),
      ],
    },
    { name: 'option_values', rows: [...values] },
    {
      name: 'argument_values',
      rows: nodes.flatMap((n): Array<[string, string]> =>
        n.dynamicArguments ? [[key(n), `${n.dynamicArguments.kind} ${n.dynamicArguments.count} ${n.dynamicArguments.every ?? 1}`]] : [],
      ),
    },
  ];
}

/** As POSIX-style `case` functions (bash and zsh). */
export function caseFunctions(tables: Table[]): string {
  return tables
    .map(
      (table) =>
        `_trident_${table.name}() {\n  case "$1" in\n${table.rows.map(([k, v]) => `    "${k}") echo "${v}" ;;`).join('\n')}\n  esac\n}\n`,
    )
    .join('\n');
}

/** As fish `switch` functions. */
export function fishFunctions(tables: Table[]): string {
  return tables
    .map(
      (table) =>
        `function __trident_${table.name}\n    switch "$argv[1]"\n${table.rows.map(([k, v]) => `        case '${k}'\n            echo '${v}'`).join('\n')}\n    end\nend\n`,
    )
    .join('\n');
}
