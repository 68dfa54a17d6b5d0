import { defineCommand, type GroupCommand, type OptionsOf } from '../../command.js';
import type { Context } from '../../context.js';
import { errorLines, usageError } from '../../core/errors.js';
import { finishWorkIfStdoutFails, stdoutFailure, stdoutWriteError } from '../../core/term/stdout-failure.js';
import { checkName } from '../../core/names.js';
import { addConnectionOptions, connect } from '../connection.js';
import { batchExitCode, updateCustomers, type RowOutcome, type RowResult } from '../customer-batch.js';
import { csvReadOptions, parseCustomerCsv } from '../csv.js';
import { requireId } from '../ids.js';
import { readFileOrStdin } from '../../core/term/read-input.js';

const MAX_CONCURRENCY = 16;

const define = (group: GroupCommand) =>
  addConnectionOptions(
    group
      .command('customer-update')
      .summary('rename a customer, or many from a CSV file')
      .description(
        'Rename one customer (POST /customers/<id>), or many from a CSV file with the columns id and name. ' +
          'The whole file is checked before anything is sent. Each row gets one result (row, id, name, ok, error); ' +
          'the exit code is 0 only if every row went through, else the highest exit code among the failed rows. A summary goes to stderr. ' +
          'After a rate limit (429) the rows not yet sent wait out its Retry-After and are spaced out, longer with each further 429.',
      )
      .argument('[customer_id]', 'customer id (not with --from-csv)')
      .option('--name <name>', 'the new name')
      .option('--from-csv <file>', 'CSV file with the columns id,name ("-" reads stdin); at most TRIDENT_MAX_CSV_MB MiB, default 64')
      .option('--concurrency <n>', `requests at a time with --from-csv (1-${MAX_CONCURRENCY})`, '4'),
  );

export type CustomerUpdateOptions = OptionsOf<typeof define>;

export async function run(ctx: Context, opts: CustomerUpdateOptions, idText?: string): Promise<number> {
  if (opts.fromCsv !== undefined) {
    if (idText !== undefined || opts.name !== undefined)
      throw usageError('--from-csv takes ids and names from the file: give no <customer_id> and no --name');
    return runBatch(ctx, opts, opts.fromCsv);
  }
  if (idText === undefined)
    throw usageError('which customer?', 'trident time customer-update <customer_id> --name <name>, or --from-csv <file>');
  const id = requireId(idText, 'customer id');
  const name = opts.name?.trim();
  if (!name) throw usageError('--name is required and must not be empty');
  checkName(name, '--name');
  const { client } = await connect(ctx, opts);
  const customer = await client.updateCustomer(id, name);
  ctx.log.info(`renamed customer ${id}`);
  await ctx.output.object(customer);
  return 0;
}

async function runBatch(ctx: Context, opts: CustomerUpdateOptions, file: string): Promise<number> {
  const concurrency = parseConcurrency(opts.concurrency ?? '4');
  const source = file === '-' ? 'stdin' : file;
  const rows = await parseCustomerCsv(await readFileOrStdin(ctx.io.stdin, file, source, csvReadOptions(ctx.env)), source);
  const { client } = await connect(ctx, opts);
  // Every row is sent even if the reader of the results goes away (`| head`): the exit code tells.
  finishWorkIfStdoutFails();

  const codes: number[] = [];
  const failedRows: number[] = [];
  async function* results(outcomes: AsyncIterable<RowOutcome>) {
    for await (const { result, exitCode } of outcomes) {
      codes.push(exitCode);
      if (!result.ok) failedRows.push(result.row);
      yield result;
    }
  }
  const onFirstRateLimit = () => ctx.log.info('the time service is rate limiting (429): spacing the rows that follow');
  const progress = ctx.progress('customers');
  const onRowDone = progress && ((done: number) => progress.update(done, rows.length));
  try {
    await printResults(ctx, results(updateCustomers(client, rows, concurrency, { onFirstRateLimit, onRowDone })));
  } finally {
    progress?.end();
  }

  const updated = rows.length - failedRows.length;
  if (failedRows.length === 0) {
    ctx.log.info(`updated ${updated} of ${rows.length} customers`);
  } else {
    const shown = failedRows.slice(0, 20).join(', ');
    ctx.io.stderr.write(
      errorLines(
        `updated ${updated} of ${rows.length} customers; ${failedRows.length} failed (rows ${shown}${failedRows.length > 20 ? ', …' : ''})`,
        'the result of each row says why',
      ),
    );
  }
  // A reader that went away (EPIPE) is no failure of the batch; a full disk is, once every row was sent.
  const lost = stdoutFailure();
  const outputLost = lost && lost.code !== 'EPIPE' ? stdoutWriteError(lost) : undefined;
  if (outputLost) ctx.io.stderr.write(errorLines(outputLost.message, 'every row was still sent: the service has them'));
  const code = batchExitCode(codes);
  return code === 0 && outputLost ? outputLost.exitCode : code;
}

function printResults(ctx: Context, results: AsyncIterable<RowResult>): Promise<number> {
  return ctx.output.list(
    results,
    [
      { header: 'row', value: (r) => r.row },
      { header: 'id', value: (r) => r.id },
      { header: 'name', value: (r) => r.name },
      { header: 'ok', value: (r) => (r.ok ? 'yes' : 'no') },
      { header: 'error', value: (r) => r.error ?? '' },
    ],
    (r) => ({ row: r.row, id: r.id, name: r.name, ok: r.ok, error: r.error ?? null }),
  );
}

function parseConcurrency(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > MAX_CONCURRENCY)
    throw usageError(`invalid --concurrency "${value}": expected 1 to ${MAX_CONCURRENCY}`);
  return n;
}

export const { register, definition } = defineCommand({
  define,
  examples: [
    'trident time customer-update 3 --name "Müller & Söhne GmbH"',
    'trident time customer-update --from-csv renames.csv -o json',
    'cut -d, -f1,3 export.csv | trident time customer-update --from-csv - --concurrency 8',
  ],
  run,
});
