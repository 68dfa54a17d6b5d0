import { Option } from '@commander-js/extra-typings';
import { defineCommand, type GroupCommand, type OptionsOf } from '../../command.js';
import type { Context } from '../../context.js';
import { TridentError } from '../../core/errors.js';
import { byImportance, type Column, type Importance } from '../../core/term/output/columns.js';
import { addConnectionOptions, connect } from '../connection.js';
import { reportRange } from '../report-dates.js';
import { reportLines, type ReportLine } from '../report-lines.js';
import { DECIMAL_FIELDS, GROUP_BY, buildReport, type GroupBy } from '../report.js';

const COLUMNS: Array<Column<ReportLine>> = [
  { header: 'date', value: (line) => line.date },
  { header: 'project', value: (line) => line.project },
  { header: 'user', value: (line) => line.user },
  {
    header: 'description',
    value: (line) =>
      line.line === 'entry' ? line.description : `${line.line} (${line.records} ${line.records === 1 ? 'record' : 'records'})`,
  },
  { header: 'start', key: 'time_start', value: (line) => line.time_start },
  { header: 'end', key: 'time_end', value: (line) => line.time_end },
  { header: 'time', key: 'time_total', value: (line) => line.time_total },
  { header: 'amount', key: 'rate_total', value: (line) => line.rate_total },
];

/**
 * The table's columns. On a narrow terminal the time, the amount, the description (which names the subtotals
 * and the total) and the column that names each group stay; the end and start times go first, then the user,
 * then the date or the project.
 */
export function reportColumns(groupBy: GroupBy): Array<Column<ReportLine>> {
  return byImportance(COLUMNS, importance(groupBy));
}

function importance(groupBy: GroupBy): Importance {
  const group = groupBy === 'day' ? 'date' : 'project';
  const others = groupBy === 'none' ? ['project', 'date'] : groupBy === 'day' ? ['project'] : ['date'];
  return {
    keep: ['description', 'time_total', 'rate_total', ...(groupBy === 'none' ? [] : [group])],
    drop: ['time_end', 'time_start', 'user', ...others],
  };
}

const EXPERIMENTAL = "the endpoint is not in the service's published docs";

const define = (group: GroupCommand) =>
  addConnectionOptions(
    group
      .command('report')
      .summary('logged time from --from to --to, with totals (experimental)')
      .description(
        `EXPERIMENTAL: reads GET /reports/detailed, which the time tracker serves but does not document (${EXPERIMENTAL}); ` +
          'its fields may change without notice. One row per time record from --from to --to (both days included), ' +
          'then a subtotal per project or per day (--group-by) and the total: time as HH:MM:SS summed exactly in seconds, ' +
          'amounts as the service reports them, summed exactly. -o csv gives the same lines for invoicing (column "line": entry, ' +
          "subtotal or total; a text that a spreadsheet would run as a formula, starting with =, +, -, @, gets a leading ', " +
          'amounts stay numbers); -o json gives {from, to, group_by, rows, totals: {groups, overall}}.',
      )
      .option('--from <date>', 'first day, YYYY-MM-DD (required)')
      .option('--to <date>', 'last day, YYYY-MM-DD, included (required)')
      .addOption(new Option('--group-by <what>', 'subtotals per project, per day, or none').choices(GROUP_BY).default('project')),
  );

export type ReportOptions = OptionsOf<typeof define>;

export async function run(ctx: Context, opts: ReportOptions): Promise<void> {
  const { from, to } = reportRange(opts.from, opts.to);
  const groupBy = opts.groupBy ?? 'project';
  const { client } = await connect(ctx, opts);
  let rows: Array<Record<string, unknown>>;
  try {
    rows = await client.detailedReport(from, to);
  } catch (error) {
    if (!(error instanceof TridentError) || error.status !== 404) throw error;
    throw new TridentError(error.exitCode, error.message, {
      status: 404,
      requestId: error.requestId,
      hint: `this time tracker may not serve GET /reports/detailed: time report is experimental (${EXPERIMENTAL}); check --url`,
      cause: error,
    });
  }
  const report = buildReport(rows, groupBy);
  if (report.unreadable > 0) {
    ctx.log.warn(
      `${report.unreadable} of ${rows.length} rows had no readable time (time_total, or time_start and time_end): each counts as 00:00:00`,
    );
  }
  if (report.entries.length === 0) ctx.log.info(`no time recorded from ${from} to ${to}`);
  if (ctx.format === 'json') {
    const groups = report.groups.map((group) => group.total);
    await ctx.output.object({ from, to, group_by: groupBy, rows: report.entries, totals: { groups, overall: report.overall } });
    return;
  }
  await ctx.output.list(reportLines(report, groupBy), reportColumns(groupBy), undefined, undefined, DECIMAL_FIELDS);
}

export const { register, definition } = defineCommand({
  define,
  examples: [
    'trident time report --from 2026-11-02 --to 2026-11-06',
    'trident time report --from 2026-11-01 --to 2026-11-30 --group-by day',
    'trident time report --from 2026-11-01 --to 2026-11-30 -o csv > november.csv',
    'trident time report --from 2026-11-01 --to 2026-11-30 --group-by none -o json',
  ],
  run,
});
