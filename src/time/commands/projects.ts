import { Option, type Command } from '@commander-js/extra-typings';
import { defineCommand, examples, type Binder, type GroupCommand, type OptionsOf } from '../../command.js';
import type { Context } from '../../context.js';
import { byImportance, type Column, type Importance } from '../../core/term/output/columns.js';
import { addConnectionOptions, connect } from '../connection.js';
import { PROJECT_FIELDS, type Project } from '../normalize.js';
import * as create from './project-create.js';
import * as del from './project-delete.js';
import * as get from './project-get.js';
import * as update from './project-update.js';

const yesNo = (value: unknown) => (value === true ? 'yes' : value === false ? 'no' : '');

export const PROJECT_COLUMNS: Array<Column<Project>> = [
  { header: 'id', value: (p) => p.id },
  { header: 'name', value: (p) => p.name },
  { header: 'customer', key: 'customer_name', value: (p) => p.customer_name },
  { header: 'status', value: (p) => p.status },
  { header: 'billable', value: (p) => yesNo(p.billable) },
  { header: 'time total', key: 'time_total', value: (p) => p.time_total },
];

/** On a narrow terminal the id, the name and the time total stay; billable goes first, then status, then customer. */
const IMPORTANCE: Importance = { keep: ['id', 'name', 'time_total'], drop: ['billable', 'status', 'customer_name'] };

const define = (projects: GroupCommand) =>
  addConnectionOptions(
    projects
      .command('list', { isDefault: true })
      .summary('list projects (the default: "time projects" alone lists)')
      .description(
        'List the projects, the active ones unless --status says otherwise. The table shows id, name, customer, ' +
          'status, billable and time total; -o json|ndjson|csv|tsv carries every field.',
      )
      .addOption(new Option('--status <status>', 'which projects to list').choices(['active', 'archived', 'all']).default('active')),
  );

export type ProjectsOptions = OptionsOf<typeof define>;

/** The service has no documented status filter: the list is filtered here, on the normalized status. */
export async function run(ctx: Context, opts: ProjectsOptions): Promise<void> {
  const status = opts.status ?? 'active';
  const { client } = await connect(ctx, opts);
  const projects = (await client.listProjects()).filter((project) => status === 'all' || project.status === status);
  const count = await ctx.output.list(projects, byImportance(PROJECT_COLUMNS, IMPORTANCE), undefined, PROJECT_FIELDS as readonly string[]);
  if (count === 0) ctx.log.info(`no ${status === 'all' ? '' : `${status} `}projects`);
}

const list = defineCommand({
  define,
  examples: ['trident time projects', 'trident time projects --status all -o json', 'trident time projects list --status archived'],
  columns: PROJECT_FIELDS as readonly string[],
  run,
});

export const { definition } = list;

/**
 * `time projects` is both the list and the parent of get/create/update/delete. The list is the default
 * subcommand rather than an action of `projects` itself: commander would show a parent's options as global
 * options of every child, and would take `--url` given before `get` away from it.
 */
export function register(parent: Command, bind: Binder): void {
  const projects = parent
    .command('projects')
    .summary('list projects; get, create, update or delete one')
    .description(
      'Projects of the time tracker. Without a subcommand, lists them: "time projects --status all" is "time projects list --status all".',
    );
  list.register(projects, bind);
  for (const sub of [get, create, update, del]) sub.register(projects, bind);
  examples(projects, [
    'trident time projects --status all',
    'trident time projects get 57',
    'trident time projects create --name "Website relaunch" --customer-id 3 --billable true',
    'trident time projects update 57 --active false',
    'trident time projects delete 61 --yes',
  ]);
}
