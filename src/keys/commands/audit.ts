import { defineCommand, type GroupCommand, type OptionsOf } from '../../command.js';
import { ageText } from '../../core/term/times.js';
import type { Context } from '../../context.js';
import { ExitCode, errorLines } from '../../core/errors.js';
import type { Column } from '../../core/term/output/columns.js';
import { FLAGS, auditRows, parseFailOn, type AuditRow } from '../audit/rows.js';
import { addConnectionOptions, resolveConnection } from '../connection.js';
import { parseAge, recordKeyInUse } from '../key-ages.js';
import { openSettledClient } from '../settled-client.js';

const flagText = (row: AuditRow) =>
  row.flags.map((flag) => (flag === 'overlap' && row.kept_until ? `overlap until ${row.kept_until}` : flag)).join('\n') || undefined;

const COLUMNS: Array<Column<AuditRow>> = [
  { header: 'id', key: 'api_key', value: (row) => row.api_key },
  { header: 'name', value: (row) => row.name, hide: 2 },
  { header: 'scopes', value: (row) => row.scopes, hide: 1 },
  { header: 'subaccount', value: (row) => row.subaccount ?? 'all', hide: 0 },
  { header: 'age', key: 'age_seconds', value: (row) => (row.age_seconds === null ? 'unknown' : ageText(row.age_seconds)) },
  { header: 'age from', key: 'age_source', value: (row) => row.age_source, hide: 0 },
  { header: 'in use', key: 'in_use', value: (row) => (row.in_use ? 'yes' : undefined) },
  { header: 'held by', key: 'held_by', value: (row) => row.held_by.map((holder) => holder.where).join('\n') || undefined },
  { header: 'flags', value: flagText },
];

/** The fields of a row in machine output (the csv/tsv header of an empty list too). */
const FIELDS = [
  'api_key',
  'name',
  'scopes',
  'subaccount',
  'created_ts',
  'age_seconds',
  'age_source',
  'in_use',
  'held_by',
  'flags',
  'kept_until',
];

/** JSON and ndjson carry each holder as an object; csv and tsv, where a cell is text, the places one per line. */
const record = (row: AuditRow, structured: boolean): Record<string, unknown> => ({
  api_key: row.api_key,
  name: row.name,
  scopes: row.scopes,
  subaccount: row.subaccount,
  ...(row.fcm_subtrader_id !== undefined ? { fcm_subtrader_id: row.fcm_subtrader_id } : {}),
  created_ts: row.created_ts,
  age_seconds: row.age_seconds,
  age_source: row.age_source,
  in_use: row.in_use,
  held_by: structured
    ? row.held_by.map((holder) => ({ kind: holder.kind, where: holder.where, profile: holder.profile ?? null, file: holder.file ?? null }))
    : row.held_by.map((holder) => holder.where).join('\n'),
  flags: row.flags,
  kept_until: row.kept_until,
});

const define = (group: GroupCommand) =>
  addConnectionOptions(
    group
      .command('audit')
      .summary('every key of the account: age, where its private half is held here, and flags')
      .description(
        `Every key of the account in one table: name, scopes, subaccount, age (the service's created_ts, else when trident made the key or first saw it in use, else "unknown"), whether it is the key in use, where its private half is held on this machine (a profile and its file, the key given by --key-id/TRIDENT_KEY_ID, <config dir>/keys/<api_key>.pem, an old key kept by a rotation, a rotation in progress), and flags: unheld (no private half here), old (older than --max-age), rotating (a rotation or a key being made is in progress), overlap (an old key kept by keys rotate --keep-old-for, and until when). --fail-on ${FLAGS.join(',')} exits 9 when a key has one of the flags named, for policy checks in CI; the table and every output format are printed first.`,
      )
      .option('--max-age <age>', 'flag keys older than this as old (90d, 36h, 30m, 2w)')
      .option('--fail-on <flags>', `exit 9 when any key has one of these flags: ${FLAGS.join(', ')} (comma-separated)`),
  );

export type AuditOptions = OptionsOf<typeof define>;

export async function run(ctx: Context, opts: AuditOptions): Promise<number> {
  const maxAge = opts.maxAge === undefined ? undefined : parseAge(opts.maxAge, '--max-age');
  const failOn = parseFailOn(opts.failOn, maxAge);
  const connection = await resolveConnection(ctx, opts);
  const client = await openSettledClient(ctx, connection);
  const keys = await client.list();
  const { keyId, source } = connection.signer;
  if (keys.some((key) => key.api_key === keyId)) await recordKeyInUse(ctx, keyId);
  const fromProfile = ctx.settings.resolve('keys.keyId', opts.keyId).source === 'profile';
  const rows = auditRows(ctx, keys, keyId, fromProfile ? undefined : { keyId, source }, maxAge);
  if (rows.length === 0) ctx.log.info('no keys');
  const structured = ctx.output.format === 'json' || ctx.output.format === 'ndjson';
  await ctx.output.list(rows, COLUMNS, (row) => record(row, structured), FIELDS);
  const failing = rows.filter((row) => row.flags.some((flag) => failOn.includes(flag)));
  if (failing.length === 0) return ExitCode.ok;
  const found = failOn.filter((flag) => failing.some((row) => row.flags.includes(flag)));
  const ids = failing.map((row) => row.api_key);
  ctx.io.stderr.write(
    errorLines(
      `policy check failed: ${failing.length} key${failing.length === 1 ? '' : 's'} flagged ${found.join(', ')} (${ids.join(', ')})`,
      'unheld: delete the key or store its private half; old: trident keys rotate; rotating: trident keys rotate --resume or --abort; overlap: trident keys prune once it is due',
    ),
  );
  return ExitCode.policyFailed;
}

export const { register, definition } = defineCommand({
  define,
  examples: [
    'trident keys audit',
    'trident keys audit --max-age 90d -o json',
    'trident keys audit --max-age 90d --fail-on unheld,old     # in CI: exit 9 on a finding',
    'trident keys audit -o json --jq \'.[] | select(.flags | index("unheld")) | .api_key\'',
  ],
  columns: FIELDS,
  run,
});
