// Logged time of the time sandbox: seeded records of several users on several projects and days, rendered
// as rows of the service's undocumented `GET /reports/detailed`, which community scripts use.
import { formatDuration } from './project-json.js';
import type { TimeStore } from './store.js';

interface TimeUser {
  id: number;
  name: string;
  email: string;
  /** Hourly rate in cents, used where a project bills by user. */
  rateCents: number;
}

interface TimeRecord {
  id: number;
  userId: number;
  projectId: number;
  /** YYYY-MM-DD */
  date: string;
  /** HH:MM:SS; an end before the start runs past midnight. */
  start: string;
  end: string;
  task: string | null;
  description: string;
}

const USERS: TimeUser[] = [
  { id: 1, name: 'Demo User', email: 'demo@example.com', rateCents: 8000 },
  { id: 2, name: 'Ana Lima', email: 'ana@example.com', rateCents: 11000 },
  { id: 3, name: 'Jürgen Weiß', email: 'juergen@example.com', rateCents: 12000 },
];

const RECORDS: TimeRecord[] = [
  { id: 901, userId: 1, projectId: 57, date: '2026-10-30', start: '09:00:00', end: '10:00:00', task: null, description: 'Estimate' },
  {
    id: 902,
    userId: 1,
    projectId: 57,
    date: '2026-11-02',
    start: '09:00:00',
    end: '12:30:00',
    task: 'Planning',
    description: 'Kick-off, scope',
  },
  { id: 903, userId: 2, projectId: 57, date: '2026-11-02', start: '13:15:00', end: '17:45:30', task: 'Design', description: 'Templates' },
  {
    id: 904,
    userId: 3,
    projectId: 58,
    date: '2026-11-02',
    start: '08:00:00',
    end: '10:00:00',
    task: null,
    description: 'Kassensystem: Schnittstelle',
  },
  {
    id: 905,
    userId: 1,
    projectId: 60,
    date: '2026-11-03',
    start: '22:30:00',
    end: '01:15:00',
    task: null,
    description: 'Call with the Tokyo office',
  },
  {
    id: 906,
    userId: 2,
    projectId: 58,
    date: '2026-11-03',
    start: '09:00:00',
    end: '09:20:15',
    task: 'Support',
    description: 'Bugfix "Bon"',
  },
  { id: 907, userId: 1, projectId: 57, date: '2026-11-04', start: '10:00:00', end: '11:59:59', task: 'Planning', description: 'Sitemap' },
  {
    id: 908,
    userId: 3,
    projectId: 57,
    date: '2026-11-04',
    start: '14:00:00',
    end: '18:00:00',
    task: 'Development',
    description: 'Checkout, cart',
  },
  { id: 909, userId: 2, projectId: 60, date: '2026-11-05', start: '07:45:00', end: '08:30:00', task: null, description: '翻訳のレビュー' },
  {
    id: 910,
    userId: 1,
    projectId: 58,
    date: '2026-11-05',
    start: '16:00:00',
    end: '16:00:01',
    task: 'Support',
    description: 'Ticket closed',
  },
  { id: 911, userId: 3, projectId: 57, date: '2026-11-06', start: '09:30:00', end: '17:00:00', task: 'Development', description: 'Launch' },
  { id: 912, userId: 2, projectId: 58, date: '2026-11-09', start: '10:00:00', end: '11:00:00', task: 'Support', description: 'Follow-up' },
];

const DAY_SECONDS = 24 * 3600;

function secondsOfDay(time: string): number {
  const [h, m, s] = time.split(':').map(Number);
  return h! * 3600 + m! * 60 + s!;
}

function duration(record: TimeRecord): number {
  return (secondsOfDay(record.end) - secondsOfDay(record.start) + DAY_SECONDS) % DAY_SECONDS;
}

/** Cents as the service's decimal number (95.5, 334.25). */
const money = (cents: number): number => Number((cents / 100).toFixed(2));

export interface ReportQuery {
  start: string;
  end: string;
  descending: boolean;
}

/** One row per record whose date falls in [start, end], by date, then start time, then id. */
export function detailedReport(store: TimeStore, query: ReportQuery): Array<Record<string, unknown>> {
  const rows = RECORDS.filter((record) => record.date >= query.start && record.date <= query.end)
    .sort((a, b) => a.date.localeCompare(b.date) || a.start.localeCompare(b.start) || a.id - b.id)
    .map((record) => reportRow(store, record));
  return query.descending ? rows.reverse() : rows;
}

function reportRow(store: TimeStore, record: TimeRecord): Record<string, unknown> {
  const user = USERS.find((candidate) => candidate.id === record.userId)!;
  const project = store.project(record.projectId);
  const customer = project?.customerId == null ? undefined : store.customer(project.customerId);
  const seconds = duration(record);
  const rateCents = !project?.billable
    ? null
    : project.billBy === 'user' || project.rate === null
      ? user.rateCents
      : Math.round(Number(project.rate) * 100);
  return {
    id: record.id,
    user_id: user.id,
    user_name: user.name,
    user_email: user.email,
    project_id: record.projectId,
    project_name: project?.name ?? null,
    customer_id: customer?.id ?? null,
    customer_name: customer?.name ?? null,
    task_name: record.task,
    description: record.description,
    date_execution: record.date,
    time_start: record.start,
    time_end: record.end,
    time_total: formatDuration(seconds),
    billable: rateCents === null ? 0 : 1,
    rate_hour: rateCents === null ? null : money(rateCents),
    rate_total: rateCents === null ? null : money(Math.round((seconds * rateCents) / 3600)),
  };
}
