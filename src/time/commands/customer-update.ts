import { defineCommand, type GroupCommand, type OptionsOf } from '../../command.js';
import type { Context } from '../../context.js';
import { ExitCode, errorLines, usageError } from '../../core/errors.js';
import { stdoutWriteError } from '../../core/term/stdout-failure.js';
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
          'The whole file is checked before anything is sent: one invalid row and nothing is sent, unless --skip-invalid, which sends the valid rows and reports the others. ' +
          'Each row gets one result (line, id, name, ok, error), numbered as the line of the file it is on; ' +
          'the exit code is 0 only if every row went through, else the highest exit code among the failed rows. A summary goes to stderr. ' +
          'After a rate limit (429) the rows not yet sent wait out its Retry-After and are spaced out, longer with each further 429.',
      )
      .argument('[customer_id]', 'customer id (not with --from-csv)')
      .option('--name <name>', 'the new name')
      .option('--from-csv <file>', 'CSV file with the columns id,name ("-" reads stdin); at most TRIDENT_MAX_CSV_MB MiB, default 64')
      .option('--concurrency <n>', `requests at a time with --from-csv (1-${MAX_CONCURRENCY})`, '4')
      .option('--skip-invalid', 'with --from-csv, send the valid rows and report the invalid ones (exit 2) instead of sending nothing'),
  );

export type CustomerUpdateOptions = OptionsOf<typeof define>;

export async function run(ctx: Context, opts: CustomerUpdateOptions, idText?: string): Promise<number> {
  if (opts.fromCsv !== undefined) {
    if (idText !== undefined || opts.name !== undefined)
      throw usageError('--from-csv takes ids and names from the file: give no <customer_id> and no --name');
    return runBatch(ctx, opts, opts.fromCsv);
  }
  if (opts.skipInvalid) throw usageError('--skip-invalid skips the invalid rows of a --from-csv file', 'use it with --from-csv <file>');
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
  const text = await readFileOrStdin(ctx.io.stdin, file, source, csvReadOptions(ctx.env));
  const { rows, invalid } = await parseCustomerCsv(text, source, opts.skipInvalid === true);
  const { client } = await connect(ctx, opts);
  for (const { line, problem } of invalid) ctx.log.warn(`${source} line ${line}: ${problem}: not sent (--skip-invalid)`);
  // Every row is sent even if the reader of the results goes away (`| head`): the exit code tells.
  ctx.stdoutWatch.finishWorkIfStdoutFails();

  // An invalid row skipped is a result of its own, in the file's order, and fails the batch as bad input does.
  const codes: number[] = invalid.map(() => ExitCode.usage);
  const failedLines: number[] = [];
  const skipped = invalid.map(({ line, problem }): RowResult => ({ line, id: null, name: null, ok: false, error: `not sent: ${problem}` }));
  async function* results(outcomes: AsyncIterable<RowOutcome>) {
    for await (const { result, exitCode } of outcomes) {
      while (skipped.length > 0 && skipped[0]!.line < result.line) yield* failed(skipped.shift()!);
      codes.push(exitCode);
      if (!result.ok) failedLines.push(result.line);
      yield result;
    }
    while (skipped.length > 0) yield* failed(skipped.shift()!);
  }
  function* failed(result: RowResult) {
    failedLines.push(result.line);
    yield result;
  }
  const onFirstRateLimit = () => ctx.log.info('the time service is rate limiting (429): spacing the rows that follow');
  const progress = ctx.progress('customers');
  const onRowDone = progress && ((done: number) => progress.update(done, rows.length));
  try {
    await printResults(ctx, results(updateCustomers(client, rows, concurrency, { onFirstRateLimit, onRowDone })));
  } finally {
    progress?.end();
  }

  const total = rows.length + invalid.length;
  const updated = total - failedLines.length;
  if (failedLines.length === 0) {
    ctx.log.info(`updated ${updated} of ${total} customers`);
  } else {
    const shown = failedLines
      .sort((a, b) => a - b)
      .slice(0, 20)
      .join(', ');
    ctx.io.stderr.write(
      errorLines(
        `updated ${updated} of ${total} customers; ${failedLines.length} failed (${failedLines.length > 1 ? 'lines' : 'line'} ${shown}${failedLines.length > 20 ? ', …' : ''} of ${source})`,
        'the result of each row says why',
      ),
    );
  }
  // A reader that went away (EPIPE) is no failure of the batch; a full disk is, once every row was sent.
  const lost = ctx.stdoutWatch.failure();
  const outputLost = lost && lost.code !== 'EPIPE' ? stdoutWriteError(lost) : undefined;
  if (outputLost) ctx.io.stderr.write(errorLines(outputLost.message, 'every row was still sent: the service has them'));
  const code = batchExitCode(codes);
  return code === 0 && outputLost ? outputLost.exitCode : code;
}

function printResults(ctx: Context, results: AsyncIterable<RowResult>): Promise<number> {
  return ctx.output.list(
    results,
    [
      { header: 'line', value: (r) => r.line },
      { header: 'id', value: (r) => r.id },
      { header: 'name', value: (r) => r.name },
      { header: 'ok', value: (r) => (r.ok ? 'yes' : 'no') },
      { header: 'error', value: (r) => r.error ?? '' },
    ],
    (r) => ({ line: r.line, id: r.id, name: r.name, ok: r.ok, error: r.error ?? null }),
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
    'trident time customer-update --from-csv renames.csv --skip-invalid',
    'cut -d, -f1,3 export.csv | trident time customer-update --from-csv - --concurrency 8',
  ],
  run,
});
