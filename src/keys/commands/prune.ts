import { defineCommand, type GroupCommand, type OptionsOf } from '../../command.js';
import type { Context } from '../../context.js';
import { batchExitCode } from '../../core/errors.js';
import { assertConfigDir } from '../../core/files/config-files.js';
import type { Column } from '../../core/term/output/columns.js';
import type { KeysClient } from '../client.js';
import { addConnectionOptions, resolveConnection } from '../connection.js';
import { lockPrune, pruneOverlaps, type PruneResult } from '../overlap/prune.js';
import { openSettledClient } from '../settled-client.js';

const COLUMNS: Array<Column<PruneResult>> = [
  { header: 'id', key: 'api_key', value: (row) => row.api_key },
  { header: 'profile', value: (row) => row.profile ?? undefined },
  { header: 'kept until', key: 'kept_until', value: (row) => row.kept_until },
  { header: 'result', value: (row) => row.result },
];

const NOTHING_KEPT = 'prune: no old key is kept by a rotation (keys rotate --keep-old-for): nothing to prune';

const FIELDS = ['api_key', 'profile', 'kept_until', 'result', 'error'];

const record = (row: PruneResult) => ({ ...row, error: row.error ?? null });

/** Rows of keys a prune left alone because it had nothing to do with them. */
const IDLE: ReadonlySet<PruneResult['result']> = new Set(['not due', 'other service']);

/** The results; with -q none when nothing was deleted, refused or failed, so that cron (which mails what a job prints) stays silent. */
async function printResults(ctx: Context, results: PruneResult[]): Promise<void> {
  if (results.length === 0) ctx.log.info(NOTHING_KEPT);
  if (ctx.log.quiet && results.every((row) => IDLE.has(row.result))) return;
  await ctx.output.list(results, COLUMNS, record, FIELDS);
}

const define = (group: GroupCommand) =>
  addConnectionOptions(
    group
      .command('prune')
      .summary('delete the old keys a rotation kept (--keep-old-for) once their time has come')
      .description(
        'Delete each old key that keys rotate --keep-old-for kept, once its time has come: on the service first (a key already gone counts as deleted), then the private key file trident made for it (<config dir>/keys/<api_key>.pem), then its record (<config dir>/overlap/). Every delete is recorded before and after it is sent, so a prune killed midway is finished by the next one. A key that a profile uses again, or that a rotation is working on, is never deleted: it gets one line on stderr, its record stays, and the exit code is 2 once the others are done. One prune runs at a time per config dir. Meant for cron: nothing due, nothing sent, exit 0.',
      )
      .option('--dry-run', 'say what would be deleted, and send nothing'),
  );

export type PruneOptions = OptionsOf<typeof define>;

export async function run(ctx: Context, opts: PruneOptions): Promise<number> {
  const connection = await resolveConnection(ctx, opts);
  const keyIdFromProfile = ctx.settings.resolve('keys.keyId', opts.keyId).source === 'profile';
  if (!assertConfigDir(ctx.configDir, 'overlap', 'overlap records directory')) {
    await printResults(ctx, []);
    return 0;
  }
  const release = opts.dryRun ? () => undefined : lockPrune(ctx);
  // Each delete is noted in its record before it is sent: the next prune sends it again or tidies up after it.
  ctx.interrupts.setHint(() => 'a delete cut short is finished by the next trident keys prune');
  try {
    let client: KeysClient | undefined;
    const open = async () => (client ??= await openSettledClient(ctx, connection));
    const { results, codes } = await pruneOverlaps(ctx, connection, { dryRun: Boolean(opts.dryRun), keyIdFromProfile }, open);
    await printResults(ctx, results);
    return batchExitCode(codes);
  } finally {
    ctx.interrupts.setHint(undefined);
    release();
  }
}

export const { register, definition } = defineCommand({
  define,
  examples: [
    'trident keys prune --dry-run',
    'trident keys prune -o json',
    'trident keys prune --profile sandbox --quiet     # from cron: see docs/automation.md',
  ],
  columns: FIELDS,
  run,
});
