// Projects as the public service really sends them: loose. Booleans are 0/1 in some places and true/false
// in others, timestamps carry an offset without a colon, and the change time is `date_changed` on some
// projects and `date_updated` on others. Clients must cope with all of it, so the sandbox serves all of it.
import type { Id } from '../../wire/time/ids.js';
import type { Customer, Project } from './store.js';

/** The account's time zone, as the service renders it (the public example shows -0200). */
const OFFSET_MINUTES = -120;

export function formatTimestamp(ms: number, offsetMinutes = OFFSET_MINUTES): string {
  const local = new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, 19);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${local}${sign}${hh}${mm}`;
}

export function formatDuration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return [h, m, s].map((n) => String(n).padStart(2, '0')).join(':');
}

const int = (value: boolean): 0 | 1 => (value ? 1 : 0);

export function projectJson(project: Project, customerOf: (id: Id) => Customer | undefined): Record<string, unknown> {
  const customer = project.customerId === null ? undefined : customerOf(project.customerId);
  // Even ids follow the public example exactly; odd ids use the other spellings seen in the wild.
  const likeExample = BigInt(project.id) % 2n === 0n;
  const changed = project.changedAt === null ? null : formatTimestamp(project.changedAt);
  return {
    id: project.id,
    customer_id: project.customerId,
    customer_name: customer?.name ?? null,
    name: project.name,
    description: project.description,
    date_created: formatTimestamp(project.createdAt),
    ...(likeExample ? { date_changed: changed } : { date_updated: changed }),
    privacy: project.privacy,
    privacy_s: project.privacy === 1 ? 'public' : 'private',
    required_task: likeExample ? int(project.requiredTask) : project.requiredTask,
    created_by: project.createdBy,
    deleted_by: null,
    billable: likeExample ? int(project.billable) : project.billable,
    bill_by: project.billBy,
    active: likeExample ? project.active : int(project.active),
    status: project.active ? 'active' : 'archived',
    template: likeExample ? project.template : int(project.template),
    is_member: true,
    is_manager: likeExample ? true : 1,
    rate: project.rate === null ? null : likeExample ? Number(project.rate) : project.rate,
    value_total: project.valueTotal === null ? null : likeExample ? project.valueTotal : project.valueTotal.toFixed(2),
    time_total: formatDuration(project.timeSeconds),
    total_members: project.totalMembers,
    total_active_tasks: project.totalActiveTasks,
  };
}
