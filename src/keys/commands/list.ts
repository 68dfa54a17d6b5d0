import type { Command } from 'commander';
import { examples, type Binder } from '../../command.js';
import type { Context } from '../../context.js';
import type { Column } from '../../core/output.js';
import type { ApiKey } from '../client.js';
import { addConnectionOptions, connect, type ConnectionOptions } from '../connection.js';
import { checkFcmSubtraderId } from '../rules.js';

export interface ListOptions extends ConnectionOptions {
  fcmSubtraderId?: string;
}

const COLUMNS: Array<Column<ApiKey>> = [
  { header: 'id', value: (key) => key.api_key },
  { header: 'name', value: (key) => key.name },
  { header: 'scopes', value: (key) => key.scopes },
  { header: 'subaccount', value: (key) => key.subaccount ?? 'all' },
  { header: 'created', value: (key) => key.created_ts },
];

export async function run(ctx: Context, opts: ListOptions): Promise<void> {
  const fcmSubtraderId = checkFcmSubtraderId(opts.fcmSubtraderId);
  const client = await connect(ctx, opts);
  const keys = await client.list({ fcmSubtraderId });
  if (keys.length === 0) ctx.log.info(fcmSubtraderId ? `no keys bound to FCM subtrader ${fcmSubtraderId}` : 'no keys');
  // Every row gets the column when any key is bound to an FCM subtrader, so that csv/tsv headers hold it.
  const withFcm = keys.some((key) => key.fcm_subtrader_id !== undefined);
  const columns = withFcm ? [...COLUMNS, { header: 'fcm subtrader', value: (key: ApiKey) => key.fcm_subtrader_id }] : COLUMNS;
  await ctx.output.list(keys, columns, (key) => (withFcm ? { ...key, fcm_subtrader_id: key.fcm_subtrader_id ?? null } : { ...key }));
}

export function register(parent: Command, bind: Binder): void {
  const command = parent
    .command('list')
    .summary('list the API keys of the account')
    .description('List the API keys of the account: id, name, scopes, subaccount and creation time.')
    .option('--fcm-subtrader-id <id>', 'only keys bound to this FCM subtrader (<user_id>_<suffix>)');
  examples(addConnectionOptions(command).action(bind(run)), [
    'trident keys list',
    'trident keys list -o json',
    'trident keys list --fcm-subtrader-id 4d3c2b1a_desk7',
  ]);
}
