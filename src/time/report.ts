// Logged time from the tracker's detailed report (experimental: the endpoint is not in the published docs):
// rows normalized from whatever the service sent, grouped by project or day, and totals summed exactly —
// time in whole seconds, amounts in decimal digits, never in floating point.
import type { Id } from '../wire/time/ids.js';
import { durationSeconds, isObject, looseInteger } from './normalize.js';

export const GROUP_BY = ['project', 'day', 'none'] as const;
export type GroupBy = (typeof GROUP_BY)[number];

/** The amounts: decimals written as text, so that they are summed and printed exactly (csv and tsv keep them numbers). */
export const DECIMAL_FIELDS = ['rate_hour', 'rate_total'] as const;

export interface ReportEntry {
  date: string | null;
  user: string | null;
  project_id: Id | null;
  project: string | null;
  task: string | null;
  description: string | null;
  time_start: string | null;
  time_end: string | null;
  /** `HH:MM:SS`, as summed: hours may exceed 24. */
  time_total: string;
  seconds: number;
  rate_hour: string | null;
  rate_total: string | null;
}

export interface Total {
  records: number;
  seconds: number;
  time_total: string;
  /** The sum of the rows' amounts; null when no row had one. */
  rate_total: string | null;
}

export interface GroupTotal extends Total {
  group: string;
}

export interface Report {
  entries: ReportEntry[];
  /** In the order the groups are printed; empty with --group-by none. */
  groups: Array<{ total: GroupTotal; entries: ReportEntry[] }>;
  overall: Total;
  /** Rows whose time could not be read (counted as 0 s). */
  unreadable: number;
}

/** 93784 → `26:03:04`. */
export function formatDuration(seconds: number): string {
  const hours = Math.floor(seconds / 3600);
  const rest = [Math.floor((seconds % 3600) / 60), seconds % 60].map((n) => String(n).padStart(2, '0'));
  return [String(hours).padStart(2, '0'), ...rest].join(':');
}

const text = (value: unknown): string | null =>
  typeof value === 'string' && value !== '' ? value : typeof value === 'number' || typeof value === 'bigint' ? String(value) : null;

/** A decimal amount as text (`95.5`, `"334.25"`), or null when it is none. */
function decimal(value: unknown): string | null {
  const written =
    (typeof value === 'number' && Number.isFinite(value)) || typeof value === 'bigint'
      ? String(value)
      : typeof value === 'string'
        ? value.trim()
        : '';
  return /^-?\d+(\.\d+)?$/.test(written) ? written : null;
}

/** The seconds of a time of day `HH:MM[:SS]`, also at the end of a date-time; null if there is none. */
function timeOfDay(value: string | null): number | null {
  const match = value === null ? null : /(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?$/.exec(value.trim());
  return match ? Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3] ?? 0) : null;
}

/** time_total, else the span from time_start to time_end (past midnight if the end is earlier). */
function entrySeconds(raw: Record<string, unknown>, start: string | null, end: string | null): number | null {
  const total = durationSeconds(raw.time_total);
  if (total !== null) return total;
  const [from, to] = [timeOfDay(start), timeOfDay(end)];
  return from === null || to === null ? null : (to - from + 86_400) % 86_400;
}

function entryOf(raw: Record<string, unknown>): { entry: ReportEntry; readable: boolean } {
  const start = text(raw.time_start);
  const end = text(raw.time_end);
  const seconds = entrySeconds(raw, start, end);
  const date = text(raw.date_execution);
  const projectId = looseInteger(raw.project_id);
  return {
    readable: seconds !== null,
    entry: {
      date: date && /^\d{4}-\d{2}-\d{2}/.test(date) ? date.slice(0, 10) : date,
      user: text(raw.user_name) ?? text(raw.user_email),
      project_id: typeof projectId === 'bigint' || Number.isInteger(projectId) ? (projectId as Id) : null,
      project: text(raw.project_name),
      task: text(raw.task_name),
      description: text(raw.description),
      time_start: start,
      time_end: end,
      time_total: formatDuration(seconds ?? 0),
      seconds: seconds ?? 0,
      rate_hour: decimal(raw.rate_hour),
      rate_total: decimal(raw.rate_total),
    },
  };
}

/** Exact sum of decimal strings: scaled to the longest fraction, added as integers. */
export function sumDecimals(values: ReadonlyArray<string | null>): string | null {
  const present = values.filter((value): value is string => value !== null);
  if (present.length === 0) return null;
  const scale = Math.max(...present.map((value) => value.split('.')[1]?.length ?? 0));
  const sum = present.reduce((acc, value) => {
    const [whole, fraction = ''] = value.replace('-', '').split('.');
    const units = BigInt(whole! + fraction.padEnd(scale, '0'));
    return acc + (value.startsWith('-') ? -units : units);
  }, 0n);
  const digits = (sum < 0n ? -sum : sum).toString().padStart(scale + 1, '0');
  const sign = sum < 0n ? '-' : '';
  return scale === 0 ? `${sign}${digits}` : `${sign}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

function total(entries: readonly ReportEntry[]): Total {
  const seconds = entries.reduce((sum, entry) => sum + entry.seconds, 0);
  return {
    records: entries.length,
    seconds,
    time_total: formatDuration(seconds),
    rate_total: sumDecimals(entries.map((entry) => entry.rate_total)),
  };
}

function groupKey(entry: ReportEntry, by: GroupBy): string {
  if (by === 'day') return entry.date ?? '(no date)';
  return entry.project ?? (entry.project_id === null ? '(no project)' : `project ${entry.project_id}`);
}

/** Rows (in the service's date order) grouped by project (by name) or day (by date), with their totals. */
export function buildReport(rows: readonly unknown[], by: GroupBy): Report {
  const parsed = rows.filter(isObject).map(entryOf);
  const entries = parsed.map((row) => row.entry);
  const groups = new Map<string, ReportEntry[]>();
  for (const entry of by === 'none' ? [] : entries) {
    const key = groupKey(entry, by);
    const members = groups.get(key);
    if (members) members.push(entry);
    else groups.set(key, [entry]);
  }
  // Days in calendar order; projects by name, ignoring case.
  const ordered = [...groups.entries()].sort(([a], [b]) =>
    by === 'day' ? a.localeCompare(b) : a.localeCompare(b, 'en', { sensitivity: 'base' }) || a.localeCompare(b),
  );
  return {
    entries,
    groups: ordered.map(([group, members]) => ({ total: { group, ...total(members) }, entries: members })),
    overall: total(entries),
    unreadable: parsed.filter((row) => !row.readable).length,
  };
}
