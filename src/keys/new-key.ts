// What create and generate share: their key options, the making of a key pair and the report of the key they made.
import type { Command, OptionValues } from '@commander-js/extra-typings';
import type { Context } from '../context.js';
import type { Column } from '../core/term/output/columns.js';
import type { ApiKey } from './client.js';
import { addConnectionOptions } from './connection.js';
import { recordKeyMade } from './key-ages.js';
import { STDOUT } from './mint/key-files.js';
import { mintKey, type MintRequest, type MintSteps, type MintedKey } from './mint/mint.js';
import { interruptedAfterKey, interruptedAfterKeyHint } from './mint/outcomes.js';
import type { MintTools } from './mint/settle.js';

/** A write's result: what was made, where its private half went, what was done. Never holds the private key itself. */
export interface NewKeyResult {
  api_key: ApiKey;
  private_key_file: string | null;
  /** create --public-key given a private key: only its public half was uploaded. */
  public_key_from_private_key?: boolean;
  warning?: string;
  /** The profile now pointing at the key (--use). */
  used?: string;
}

export function addNewKeyOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(command: Command<A, O, G>) {
  return addConnectionOptions(
    command
      .option('--name <name>', 'name of the new key (required)')
      .option(
        '--scopes <list>',
        'comma-separated scopes: read, write, or a child scope <parent>::<child> such as write::transfer (held without its parent too); write needs read (default read,write)',
      )
      .option('--subaccount <n>', 'restrict the key to one subaccount, 0-63')
      .option('--fcm-subtrader-id <id>', 'bind the key to an FCM subtrader, <user_id>_<suffix> (not with --subaccount)')
      .option('--use', 'point the current profile at the new key (keys.keyId and keys.privateKeyFile)')
      .option('--force', 'replace an existing --out file'),
  );
}

/**
 * A key pair made for create or generate. From the request until its private half is in place an interrupt
 * waits (core/term/interrupts.ts). After that nothing but this command would tell the user the key exists: an
 * interrupt before its report names the key and where its private half is.
 */
export async function makeKeyPair(ctx: Context, tools: MintTools, request: MintRequest, steps?: MintSteps): Promise<MintedKey> {
  const made = await ctx.interrupts.finishBefore('making the key', () => mintKey(tools, request, steps));
  const id = made.apiKey.api_key;
  const place = made.file === STDOUT || made.file === null ? undefined : made.file;
  ctx.interrupts.setHint(() => interruptedAfterKeyHint(id, place));
  await recordKeyMade(ctx, id);
  if (ctx.interrupts.heldBack()) throw interruptedAfterKey(id, place);
  return made;
}

type Row = Record<string, unknown>;
const FIELDS: Array<Column<Row>> = [
  { header: 'id', key: 'api_key', value: (row) => row.api_key },
  // The name as given; the tag trident added to it apart.
  { header: 'name', value: (row) => row.given_name },
  { header: 'tag', value: (row) => (row.name === row.given_name ? undefined : String(row.name).slice(String(row.given_name).length + 1)) },
  { header: 'scopes', value: (row) => row.scopes },
  { header: 'subaccount', value: (row) => row.subaccount ?? 'all' },
  { header: 'fcm subtrader', value: (row) => row.fcm_subtrader_id },
  { header: 'created', key: 'created_ts', value: (row) => row.created_ts },
  { header: 'private key file', value: (row) => row.private_key_file ?? '(not here)' },
  { header: 'public key from', value: (row) => (row.public_key_from_private_key ? 'the private key given' : undefined) },
  { header: 'warning', value: (row) => row.warning },
  { header: 'used by profile', value: (row) => row.used },
];

/**
 * The service's warning on stderr, then the result: a two-column table for people, for scripts one flat
 * object, the key in `keys list`'s field names (`api_key` is its id) plus what was done.
 */
export async function printNewKey(ctx: Context, result: NewKeyResult): Promise<void> {
  if (result.warning) ctx.log.warn(`the keys service says: ${result.warning}`);
  const { api_key: key, ...done } = result;
  const row: Row = { ...key, ...done };
  await ctx.output.object(
    row,
    FIELDS.filter((field) => field.value(row) !== undefined),
  );
}
