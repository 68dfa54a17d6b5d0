import { defineCommand, type GroupCommand, type OptionsOf } from '../../command.js';
import type { Context } from '../../context.js';
import { byImportance, type Column, type Importance } from '../../core/term/output/columns.js';
import type { ApiKey } from '../client.js';
import { addConnectionOptions, resolveConnection } from '../connection.js';
import { openSettledClient } from '../settled-client.js';
import { keyAges, recordKeyInUse, type KeyAge } from '../key-ages.js';
import { checkFcmSubtraderId } from '../rules.js';

/** A listed key with what trident knows of it: whether it signs this command's requests, and its age. */
type ListedKey = ApiKey & { in_use: boolean; age?: KeyAge };

const COLUMNS: Array<Column<ListedKey>> = [
  { header: 'id', key: 'api_key', value: (key) => key.api_key },
  // The name as the user gave it; the tag trident adds to the keys it makes stands apart (TAG_COLUMN).
  { header: 'name', key: 'given_name', value: (key) => key.given_name, breakable: true },
  { header: 'scopes', value: (key) => key.scopes },
  { header: 'subaccount', value: (key) => key.subaccount ?? 'all' },
  { header: 'created', key: 'created_ts', value: (key) => key.created_ts },
  { header: 'age', key: 'age_seconds', value: (key) => key.age?.seconds },
  { header: 'in use', key: 'in_use', value: (key) => (key.in_use ? 'yes' : undefined) },
];

/** The tag trident added to the name of a key it made (`deploy~ec60fe73`), shown when a key has one. */
const TAG_COLUMN: Column<ListedKey> = {
  header: 'tag',
  value: (key) => (key.name === key.given_name ? undefined : key.name.slice(key.given_name.length + 1)),
};

/**
 * On a narrow terminal the id, the name people read and the key in use stay (a long name wraps, breaking
 * anywhere): the others go, the creation time first (the age says it), the tag before the scopes.
 */
const IMPORTANCE: Importance = {
  keep: ['api_key', 'given_name', 'in_use'],
  drop: ['created_ts', 'subaccount', 'tag', 'scopes', 'fcm_subtrader_id', 'age_seconds'],
};

/** The fields of a listed key in machine output (the csv/tsv header of an empty list too). */
const FIELDS = ['api_key', 'name', 'given_name', 'scopes', 'created_ts', 'subaccount', 'in_use', 'age_seconds'];

function record({ age, ...key }: ListedKey, withFcm: boolean): Record<string, unknown> {
  return {
    ...key,
    ...(withFcm ? { fcm_subtrader_id: key.fcm_subtrader_id ?? null } : {}),
    age_seconds: age ? Math.floor(age.seconds) : null,
  };
}

const define = (group: GroupCommand) =>
  addConnectionOptions(
    group
      .command('list')
      .summary('list the API keys of the account')
      .description(
        "List the API keys of the account: id, name, scopes, subaccount, creation time, age and which key is in use (the one signing this request). The name is shown as it was given: the tag trident adds to the keys it makes (name~1a2b3c4d, so that a lost answer can be traced to its key) stands apart, and machine output has both, name as the service keeps it and given_name. The age comes from the service's created_ts, else from when trident made the key or first saw it in use (<config dir>/key-ages.json); machine output has it in seconds (age_seconds, null when unknown) and in_use true/false.",
      )
      .option('--fcm-subtrader-id <id>', 'only keys bound to this FCM subtrader (<user_id>_<suffix>)'),
  );

export type ListOptions = OptionsOf<typeof define>;

export async function run(ctx: Context, opts: OptionsOf<typeof define>): Promise<void> {
  const fcmSubtraderId = checkFcmSubtraderId(opts.fcmSubtraderId);
  const connection = await resolveConnection(ctx, opts);
  const client = await openSettledClient(ctx, connection);
  const keys = await client.list({ fcmSubtraderId });
  const inUse = connection.signer.keyId;
  if (keys.some((key) => key.api_key === inUse)) await recordKeyInUse(ctx, inUse);
  if (keys.length === 0) ctx.log.info(fcmSubtraderId ? `no keys bound to FCM subtrader ${fcmSubtraderId}` : 'no keys');
  const ages = keyAges(ctx, keys);
  const listed: ListedKey[] = keys.map((key) => ({
    ...key,
    in_use: key.api_key === inUse,
    ...(ages.has(key.api_key) ? { age: ages.get(key.api_key) } : {}),
  }));
  // Every row gets the column when any key is bound to an FCM subtrader, so that csv/tsv headers hold it.
  const withFcm = keys.some((key) => key.fcm_subtrader_id !== undefined);
  const tagged = keys.some((key) => key.name !== key.given_name);
  const columns = [
    ...COLUMNS.slice(0, 2),
    ...(tagged ? [TAG_COLUMN] : []),
    ...COLUMNS.slice(2, 4),
    ...(withFcm ? [{ header: 'fcm subtrader', key: 'fcm_subtrader_id', value: (key: ListedKey) => key.fcm_subtrader_id }] : []),
    ...COLUMNS.slice(4),
  ];
  await ctx.output.list(listed, byImportance(columns, IMPORTANCE), (key) => record(key, withFcm), FIELDS);
}

export const { register, definition } = defineCommand({
  define,
  examples: [
    'trident keys list',
    'trident keys list -o json',
    'trident keys list --jq \'.[] | select(.given_name == "sandbox-bootstrap") | .api_key\'',
    'trident keys list --fcm-subtrader-id 4d3c2b1a_desk7',
  ],
  columns: FIELDS,
  run,
});
