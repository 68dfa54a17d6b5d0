// A report as the lines of a table or a CSV for invoicing: each group's entries, its subtotal, and the total.
import type { GroupBy, Report, ReportEntry, Total } from './report.js';

export interface ReportLine extends ReportEntry {
  line: 'entry' | 'subtotal' | 'total';
  /** The project or day a subtotal is for; null on entries and the total. */
  group: string | null;
  /** How many records a subtotal or total sums; null on entries. */
  records: number | null;
}

/** Every line has the same fields in the same order: CSV takes its header from the first one. */
function line(
  kind: ReportLine['line'],
  group: string | null,
  fields: Partial<ReportEntry> & Pick<ReportEntry, 'time_total' | 'seconds' | 'rate_total'>,
  records: number | null,
): ReportLine {
  return {
    line: kind,
    group,
    date: fields.date ?? null,
    user: fields.user ?? null,
    project_id: fields.project_id ?? null,
    project: fields.project ?? null,
    task: fields.task ?? null,
    description: fields.description ?? null,
    time_start: fields.time_start ?? null,
    time_end: fields.time_end ?? null,
    time_total: fields.time_total,
    seconds: fields.seconds,
    rate_hour: fields.rate_hour ?? null,
    rate_total: fields.rate_total,
    records,
  };
}

function totalLine(kind: 'subtotal' | 'total', total: Total, group: string | null, by: GroupBy): ReportLine {
  // The group's name also where a person looks for it: the project column, or the date column.
  const named = group === null ? {} : by === 'project' ? { project: group } : by === 'day' ? { date: group } : {};
  return line(kind, group, { ...named, time_total: total.time_total, seconds: total.seconds, rate_total: total.rate_total }, total.records);
}

export function* reportLines(report: Report, by: GroupBy): Generator<ReportLine> {
  if (by === 'none') for (const entry of report.entries) yield line('entry', null, entry, null);
  for (const group of report.groups) {
    for (const entry of group.entries) yield line('entry', null, entry, null);
    yield totalLine('subtotal', group.total, group.total.group, by);
  }
  yield totalLine('total', report.overall, null, by);
}
