// The time tracker answers loosely: `{"data": ...}` envelopes, booleans as 0/1 or true/false, offsets without a
// colon, `date_changed` on some projects and `date_updated` on others. Everything is put into one shape here,
// at the boundary, so that commands and scripts see only that.
import { exactInteger } from '../core/json/big-integers.js';
import type { Id } from '../wire/time/ids.js';

export type Privacy = 'public' | 'private';

/** A project in one shape. Fields the service adds beyond these are kept as they came. */
export interface Project {
  id: Id;
  name: string;
  customer_id: Id | null;
  customer_name: string | null;
  description: string | null;
  status: 'active' | 'archived';
  active: boolean;
  billable: boolean | null;
  bill_by: string | null;
  privacy: Privacy | null;
  required_task: boolean | null;
  template: boolean | null;
  rate: number | null;
  value_total: number | null;
  /** `HH:MM:SS` as the service sends it; `time_total_seconds` is the same as a number. */
  time_total: string | null;
  time_total_seconds: number | null;
  date_created: string | null;
  /** The service's `date_updated` or `date_changed`, whichever it sent. */
  date_updated: string | null;
  [field: string]: unknown;
}

export interface Customer {
  id: Id;
  name: string;
  [field: string]: unknown;
}

type Json = Record<string, unknown>;
export const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

const BOOLEAN_FIELDS = ['active', 'billable', 'required_task', 'template', 'is_member', 'is_manager'];
const INTEGER_FIELDS = ['id', 'customer_id', 'created_by', 'deleted_by', 'total_members', 'total_active_tasks'];
const DECIMAL_FIELDS = ['rate', 'value_total'];
const TIMESTAMP_FIELDS = ['date_created', 'date_updated'];

/** The payload of a `{"data": ...}` envelope, or the body itself when it has none. */
export function unwrapData(body: unknown): unknown {
  return isObject(body) && 'data' in body ? body.data : body;
}

/** 0/1, "0"/"1", true/false and "true"/"false" as booleans; null stays null; anything else is left alone. */
export function looseBoolean(value: unknown): unknown {
  if (value === true || value === 1 || value === '1' || value === 'true') return true;
  if (value === false || value === 0 || value === '0' || value === 'false') return false;
  return value;
}

/** `2019-02-14T02:59:42-0200` → `2019-02-14T02:59:42-02:00`; a space between date and time becomes `T`. */
export function isoTimestamp(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const match = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}:?\d{2})?$/i.exec(value.trim());
  if (!match) return value;
  const [, date, time, offset] = match;
  const zone = offset === undefined ? '' : /^z$/i.test(offset) ? 'Z' : `${offset.slice(0, 3)}:${offset.slice(-2)}`;
  return `${date}T${time}${zone}`;
}

/** `HH:MM:SS` (hours may exceed 24) as seconds, or null. */
export function durationSeconds(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const match = /^(\d+):([0-5]\d):([0-5]\d)$/.exec(value.trim());
  return match ? Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3]) : null;
}

function looseNumber(value: unknown, pattern: RegExp): unknown {
  return typeof value === 'string' && pattern.test(value.trim()) ? Number(value) : value;
}

/** An integer sent as text, as a number or, past 2^53, a bigint (never rounded); anything else is left alone. */
export function looseInteger(value: unknown): unknown {
  return typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? exactInteger(value.trim()) : value;
}

export function privacyName(value: unknown): unknown {
  if (value === 1 || value === '1') return 'public';
  if (value === 2 || value === '2') return 'private';
  return value;
}

/** The fields every normalized project has, in this order (csv and tsv take their columns from it). */
export const PROJECT_FIELDS: ReadonlyArray<keyof Project> = [
  'id',
  'name',
  'customer_id',
  'customer_name',
  'description',
  'status',
  'active',
  'billable',
  'bill_by',
  'privacy',
  'required_task',
  'template',
  'rate',
  'value_total',
  'time_total',
  'time_total_seconds',
  'date_created',
  'date_updated',
];

export function normalizeProject(raw: unknown): Project {
  if (!isObject(raw)) throw new TypeError('a project is not a JSON object');
  const fields: Json = { ...raw };
  for (const field of BOOLEAN_FIELDS) if (field in fields) fields[field] = looseBoolean(fields[field]);
  for (const field of INTEGER_FIELDS) if (field in fields) fields[field] = looseInteger(fields[field]);
  for (const field of DECIMAL_FIELDS) if (field in fields) fields[field] = looseNumber(fields[field], /^-?\d+(\.\d+)?$/);
  fields.date_updated = fields.date_updated ?? fields.date_changed ?? null;
  delete fields.date_changed;
  for (const field of TIMESTAMP_FIELDS) fields[field] = isoTimestamp(fields[field] ?? null);
  if ('privacy' in fields) fields.privacy = privacyName(fields.privacy);
  fields.status = projectStatus(fields);
  if (typeof fields.active !== 'boolean') fields.active = fields.status === 'active';
  fields.time_total_seconds = durationSeconds(fields.time_total);

  const project: Json = {};
  for (const field of PROJECT_FIELDS) project[field] = fields[field] ?? null;
  // Defined, not assigned: a field named "constructor" or "__proto__" is kept as a field like any other.
  for (const [field, value] of Object.entries(fields)) {
    if (!Object.hasOwn(project, field))
      Object.defineProperty(project, field, { value, enumerable: true, writable: true, configurable: true });
  }
  return project as Project;
}

function projectStatus(project: Json): 'active' | 'archived' {
  const status = typeof project.status === 'string' ? project.status.trim().toLowerCase() : undefined;
  if (status === 'active' || status === 'archived') return status;
  return looseBoolean(project.active) === false ? 'archived' : 'active';
}

export function normalizeCustomer(raw: unknown): Customer {
  if (!isObject(raw)) throw new TypeError('a customer is not a JSON object');
  return { ...raw, id: looseInteger(raw.id) } as Customer;
}

/** The project list of `GET /projects`: an enveloped array, or a bare one. */
export function normalizeProjectList(body: unknown): Project[] {
  const data = unwrapData(body);
  if (!Array.isArray(data)) throw new TypeError('the project list is not a JSON array');
  return data.map(normalizeProject);
}
