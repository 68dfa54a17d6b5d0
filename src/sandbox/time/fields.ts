// Validation of the writable project fields of a form body. Only the fields present in the form become
// changes (a partial update changes nothing else); unknown fields are ignored, as the service does.
import { exactInteger } from '../../core/json/big-integers.js';
import type { Id } from '../../wire/time/ids.js';
import type { ProjectChanges } from './store.js';

export type FieldsResult = { ok: true; changes: ProjectChanges } | { ok: false; message: string };

const MAX_NAME = 255;

function parseBool(field: string, raw: string): boolean | string {
  switch (raw.trim().toLowerCase()) {
    case '1':
    case 'true':
      return true;
    case '0':
    case 'false':
      return false;
    default:
      return `${field} must be a boolean (0, 1, true or false)`;
  }
}

/** `customerExists` decides whether a customer_id is acceptable. */
export function projectChanges(form: URLSearchParams, customerExists: (id: Id) => boolean): FieldsResult {
  const changes: ProjectChanges = {};
  const fail = (message: string): FieldsResult => ({ ok: false, message });

  const name = form.get('name');
  if (name !== null) {
    const trimmed = name.trim();
    if (trimmed === '') return fail('name must not be empty');
    if (trimmed.length > MAX_NAME) return fail(`name must be at most ${MAX_NAME} characters`);
    changes.name = trimmed;
  }

  const description = form.get('description');
  if (description !== null) changes.description = description === '' ? null : description;

  for (const [field, key] of [
    ['active', 'active'],
    ['required_task', 'requiredTask'],
    ['billable', 'billable'],
    ['template', 'template'],
  ] as const) {
    const raw = form.get(field);
    if (raw === null) continue;
    const value = parseBool(field, raw);
    if (typeof value === 'string') return fail(value);
    changes[key] = value;
  }

  const privacy = form.get('privacy');
  if (privacy !== null) {
    const trimmed = privacy.trim();
    if (trimmed !== '1' && trimmed !== '2') return fail('privacy must be 1 (public) or 2 (private)');
    changes.privacy = trimmed === '1' ? 1 : 2;
  }

  const customerId = form.get('customer_id');
  if (customerId !== null) {
    const trimmed = customerId.trim();
    if (trimmed === '') {
      changes.customerId = null;
    } else {
      const id = /^\d{1,30}$/.test(trimmed) ? exactInteger(trimmed) : undefined;
      if (id === undefined || !customerExists(id)) return fail(`customer_id ${customerId} does not exist`);
      changes.customerId = id;
    }
  }

  const billBy = form.get('bill_by');
  if (billBy !== null) {
    const trimmed = billBy.trim();
    if (trimmed !== 'project' && trimmed !== 'user') return fail('bill_by must be project or user');
    changes.billBy = trimmed;
  }

  const rate = form.get('rate');
  if (rate !== null) {
    const trimmed = rate.trim();
    if (trimmed === '') changes.rate = null;
    else if (/^\d{1,12}(\.\d{1,4})?$/.test(trimmed)) changes.rate = trimmed;
    else return fail('rate must be a non-negative decimal number');
  }

  return { ok: true, changes };
}
