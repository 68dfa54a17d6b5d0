import { Option } from '@commander-js/extra-typings';
import { defineCommand, type GroupCommand, type OptionsOf } from '../../command.js';
import type { Context } from '../../context.js';
import type { CatalogClient, DynamicsQuery } from '../client.js';
import type { DynamicsAnswer } from '../../wire/catalog/answers.js';
import { addConnectionOptions, connect } from '../connection.js';
import { DEFAULT_SPAN_DAYS, isoWithOffset, resolveRange } from '../time-range.js';
import { DYNAMICS_FIELDS, INTERVALS, checkRange, pointCount, productId } from '../validate.js';
import { seriesOf } from '../series.js';
import { oneStore } from '../options.js';
import { SANDBOX_PRODUCT, SANDBOX_SERIES } from '../examples.js';

/** A point of the series as a csv/tsv row. */
const POINT_FIELDS = ['date', 'value'];

/** The part of the query that does not name the store row. */
export type SeriesWindow = Omit<DynamicsQuery, 'parser_name' | 'source_id'>;

/** Points a series gets when no --interval is given: the finest interval that stays within this many. */
const CHOSEN_POINTS = 1000;

/** The window of the series for these options; everything the service would refuse is refused here (exit 2). */
export function dynamicsWindow(opts: DynamicsOptions, now: Date): SeriesWindow {
  const field = opts.field;
  const range = resolveRange(opts, now);
  const interval =
    opts.interval !== undefined ? opts.interval : (INTERVALS.find((each) => pointCount(range, each) <= CHOSEN_POINTS) ?? INTERVALS.at(-1)!);
  checkRange(range, interval);
  return { field, interval, date_from: isoWithOffset(range.from), date_to: isoWithOffset(range.to) };
}

const define = (group: GroupCommand) =>
  addConnectionOptions(
    group
      .command('dynamics')
      .summary('show the time series of a price or the stock of one store row')
      .description(
        'Show one field of one store row of a product over time, one point per interval from --from on ' +
          '(at most 20000 points). A point no snapshot covers is empty (null): there is no forward fill.\n\n' +
          'The store row: --store and --source-id (catalog sources <id> lists them). A product with one store row needs ' +
          'neither, nor does a store with one row of the product need --source-id; otherwise the error lists the rows.\n\n' +
          'Times: ISO 8601 with an offset, in any form the service takes (2026-02-01T10:00:00+03:00, 2026-02-01T07:00Z, ' +
          '20260201T070000Z; sent to the microsecond), a date (2026-02-01, ' +
          `UTC midnight), or relative to now, to the second (-30d, -12h, -15m, -2w). --to defaults to now, --from to ${DEFAULT_SPAN_DAYS} days before --to.\n\n` +
          'Output: a table of date and value; --chart draws a line chart instead (table output only: with -o json ' +
          "or ndjson it is ignored and the service's answer is printed as it came; csv and tsv give date,value rows). " +
          "The chart's axis shows the field and its unit: the price unit of the store row (RUB when unknown), pcs for available_count.",
      )
      .argument('<id>', 'canonical product id')
      .option('--store <name>', 'store of the series (parser_name); needed when the product has more than one store row', oneStore)
      .option('--source-id <id>', "the store's own product id; needed when the store has more than one row of the product")
      .addOption(new Option('--field <field>', 'the field of the series').choices(DYNAMICS_FIELDS).default('price'))
      .addOption(
        new Option(
          '--interval <interval>',
          `one point every interval (default: the finest giving at most ${CHOSEN_POINTS} points)`,
        ).choices(INTERVALS),
      )
      .option('--from <time>', `start (default ${DEFAULT_SPAN_DAYS} days before --to)`)
      .option('--to <time>', 'end (default now)')
      .option('--chart', 'draw a line chart in the terminal; gaps stay gaps'),
  );

export type DynamicsOptions = OptionsOf<typeof define>;

export async function run(ctx: Context, opts: DynamicsOptions, id: string): Promise<void> {
  const product = productId(id);
  const window = dynamicsWindow(opts, ctx.now());
  const chart = Boolean(opts.chart) && ctx.format === 'table';
  if (opts.chart && !chart) ctx.log.info(`--chart ignored: charts are drawn only with -o table, and the output is ${ctx.format}`);
  if (!chart) ctx.output.checkColumns(POINT_FIELDS);
  const client = await connect(ctx, opts);
  const { chosen, ...series } = await seriesOf(client, product, opts);
  if (chosen) ctx.log.info(`the series of ${series.parser_name} ${series.source_id}, the product's only store row`);
  const query: DynamicsQuery = { ...series, ...window };
  const answer = await client.dynamics(product, query);
  if (ctx.format === 'json' || ctx.format === 'ndjson') {
    await ctx.output.object(answer);
  } else if (chart) {
    await ctx.output.write(`${await chartOf(ctx, client, product, query, answer)}\n`);
  } else {
    const points = answer.dates.map((date, index) => ({ date, value: answer.values[index] ?? null }));
    await ctx.output.list(
      points,
      [
        { header: 'date', value: (point) => point.date },
        { header: 'value', value: (point) => point.value },
      ],
      undefined,
      POINT_FIELDS,
    );
  }
}

async function chartOf(
  ctx: Context,
  client: CatalogClient,
  product: string,
  query: DynamicsQuery,
  answer: DynamicsAnswer,
): Promise<string> {
  const { renderChart } = await import('../chart.js');
  const unit = await unitOf(client, product, query);
  return renderChart({
    dates: answer.dates,
    values: answer.values,
    label: `${query.field} (${unit}) every ${query.interval}, ${query.parser_name} ${query.source_id}`,
    width: (ctx.io.stdout as { columns?: number }).columns ?? 80,
    wholeNumbers: query.field === 'available_count',
  });
}

/** `pcs` for stock; for prices the source's own price_unit (from its latest snapshot), else RUB. */
async function unitOf(client: CatalogClient, product: string, query: DynamicsQuery): Promise<string> {
  if (query.field === 'available_count') return 'pcs';
  const latest = await client.snapshots(product, { parser_name: query.parser_name, source_id: query.source_id, limit: 1 });
  const unit = latest.items[0]?.price_unit;
  return typeof unit === 'string' && unit !== '' ? unit : 'RUB';
}

export const { register, definition } = defineCommand({
  define,
  examples: [
    `trident catalog dynamics ${SANDBOX_PRODUCT} ${SANDBOX_SERIES} --chart`,
    `trident catalog dynamics ${SANDBOX_PRODUCT} ${SANDBOX_SERIES} --field price --interval 1d --chart`,
    `trident catalog dynamics ${SANDBOX_PRODUCT} ${SANDBOX_SERIES} --field available_count --interval 6h --from -7d`,
    `trident catalog dynamics ${SANDBOX_PRODUCT} ${SANDBOX_SERIES} --field price --interval 1h --from 2026-02-01T00:00:00+03:00 --to 2026-02-02 -o json`,
    `trident catalog sources ${SANDBOX_PRODUCT}     # the stores and source ids of its series`,
  ],
  columns: POINT_FIELDS,
  run,
});
