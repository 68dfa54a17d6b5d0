import type { Command } from '@commander-js/extra-typings';
import { examples, type Binder } from '../../command.js';
import type { Context } from '../../context.js';
import { SETTLEMENT_COLUMNS, SETTLEMENT_FIELDS } from '../columns.js';
import { addListOptions, printList, type ListOptions } from '../list.js';

export interface SettlementsOptions extends ListOptions {
  country?: string;
  region?: string;
  search?: string;
}

export async function run(ctx: Context, opts: SettlementsOptions): Promise<void> {
  const query = { country: opts.country, region: opts.region, q: opts.search };
  await printList(ctx, opts, {
    noun: 'settlements',
    columns: SETTLEMENT_COLUMNS,
    fields: SETTLEMENT_FIELDS,
    fetch: (client, page) => client.settlements({ ...query, ...page }),
  });
}

export function register(parent: Command, bind: Binder): void {
  const command = parent
    .command('settlements')
    .summary('list the towns and cities stores are in')
    .description('List settlements, the places store rows belong to.')
    .option('--country <name>', 'only this country, exactly as the service stores it (e.g. RUS)')
    .option('--region <name>', 'only this region, exactly as the service stores it')
    .option('--search <text>', "text in the settlement's name (the service's q)");
  examples(addListOptions(command).action(bind(run)), [
    'trident catalog settlements --search моск',
    'trident catalog settlements --country Россия --all -o ndjson',
  ]);
}
