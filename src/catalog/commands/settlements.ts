import { defineCommand, type GroupCommand, type OptionsOf } from '../../command.js';
import type { Context } from '../../context.js';
import { SETTLEMENT_COLUMNS, SETTLEMENT_FIELDS } from '../columns.js';
import { addListOptions, printList } from '../list.js';

const define = (group: GroupCommand) =>
  addListOptions(
    group
      .command('settlements')
      .summary('list the towns and cities stores are in')
      .description('List settlements, the places store rows belong to.')
      .option('--country <name>', 'only this country, exactly as the service stores it (e.g. RUS)')
      .option('--region <name>', 'only this region, exactly as the service stores it')
      .option('--search <text>', "text in the settlement's name (the service's q)"),
  );

export type SettlementsOptions = OptionsOf<typeof define>;

export async function run(ctx: Context, opts: SettlementsOptions): Promise<void> {
  const query = { country: opts.country, region: opts.region, q: opts.search };
  await printList(ctx, opts, {
    noun: 'settlements',
    columns: SETTLEMENT_COLUMNS,
    fields: SETTLEMENT_FIELDS,
    fetch: (client, page) => client.settlements({ ...query, ...page }),
  });
}

export const { register, definition } = defineCommand({
  define,
  examples: ['trident catalog settlements --search моск', 'trident catalog settlements --country Россия --all -o ndjson'],
  columns: SETTLEMENT_FIELDS,
  run,
});
