// What create and generate share: their key options and the report of the key they made.
import type { Command } from 'commander';
import type { Context } from '../context.js';
import type { Column } from '../core/output.js';
import type { ApiKey } from './client.js';
import { addConnectionOptions, type ConnectionOptions } from './connection.js';
import type { KeyInputOptions } from './rules.js';

export interface NewKeyOptions extends KeyInputOptions, ConnectionOptions {
  out?: string;
  use?: boolean;
  force?: boolean;
}

/** A write's result (DESIGN §2.8). Never holds the private key itself. */
export interface NewKeyResult {
  api_key: ApiKey;
  private_key_file: string | null;
  /** create --public-key given a private key: only its public half was uploaded. */
  public_key_from_private_key?: boolean;
  warning?: string;
  /** The profile now pointing at the key (--use). */
  used?: string;
}

export function addNewKeyOptions(command: Command): Command {
  command
    .option('--name <name>', 'name of the new key (required)')
    .option('--scopes <list>', 'comma-separated scopes: read, write; write needs read (default read,write)')
    .option('--subaccount <n>', 'restrict the key to one subaccount, 0-63')
    .option('--fcm-subtrader-id <id>', 'bind the key to an FCM subtrader, <user_id>_<suffix> (not with --subaccount)')
    .option('--use', 'point the current profile at the new key (keys.keyId and keys.privateKeyFile)')
    .option('--force', 'replace an existing --out file');
  return addConnectionOptions(command);
}

type Row = Record<string, unknown>;
const keyOf = (row: Row) => row.api_key as ApiKey;
const FIELDS: Array<Column<Row>> = [
  { header: 'api key', value: (row) => keyOf(row).api_key },
  { header: 'name', value: (row) => keyOf(row).name },
  { header: 'scopes', value: (row) => keyOf(row).scopes },
  { header: 'subaccount', value: (row) => keyOf(row).subaccount ?? 'all' },
  { header: 'fcm subtrader', value: (row) => keyOf(row).fcm_subtrader_id },
  { header: 'created', value: (row) => keyOf(row).created_ts },
  { header: 'private key file', value: (row) => row.private_key_file ?? '(not here)' },
  { header: 'warning', value: (row) => row.warning },
  { header: 'used by profile', value: (row) => row.used },
];

/** The service's warning on stderr, then the result: a two-column table for people, the object for scripts. */
export async function printNewKey(ctx: Context, result: NewKeyResult): Promise<void> {
  if (result.warning) ctx.log.warn(`the keys service says: ${result.warning}`);
  const row = { ...result } as unknown as Row;
  await ctx.output.object(
    row,
    FIELDS.filter((field) => field.value(row) !== undefined),
  );
}
