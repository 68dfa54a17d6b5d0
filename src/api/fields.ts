// The fields of `trident api`, as gh api reads them: -f key=value is always a string; -F key=value is typed
// (true, false and null are JSON's, a whole number is a number, @file is the file's text and @- stdin's; any
// other value stays a string). A key ending in [] adds to a list. They become a JSON body (keys), a form body
// (time) or, with GET, the query.
import type { Context } from '../context.js';
import { usageError } from '../core/errors.js';
import { readFileOrStdin } from '../core/term/read-input.js';

/** A typed value; a whole number is kept as its digits, so that one past 2^53 stays exact. */
export type FieldValue = string | boolean | null | { integer: string };

export interface Field {
  key: string;
  value: FieldValue;
}

/** A -F @file is a field's text, not a body: capped lower than --input. */
export const MAX_FIELD_FILE_BYTES = 1024 * 1024;

/** -f fields, then -F fields, in the order given; -F @file and @- are read here (stdin once at most). */
export async function readFields(ctx: Context, raw: string[], typed: string[], stdinTaken: boolean): Promise<Field[]> {
  const fields: Field[] = raw.map((field) => {
    const [key, value] = splitField(field, '-f');
    return { key, value };
  });
  let stdinUsed = stdinTaken;
  for (const field of typed) {
    const [key, text] = splitField(field, '-F');
    if (text === '@-') {
      if (stdinUsed) throw usageError(`-F ${key}=@- reads stdin, which another option reads already`, 'give one of them a file instead');
      stdinUsed = true;
    }
    fields.push({ key, value: text.startsWith('@') ? await readFieldFile(ctx, key, text.slice(1)) : typedValue(text) });
  }
  return fields;
}

/** "a=1" → ["a", "1"]; the first "=" splits, the key must not be empty. */
function splitField(field: string, flag: string): [string, string] {
  const at = field.indexOf('=');
  if (at <= 0) throw usageError(`invalid ${flag} "${field}": expected key=value`);
  return [field.slice(0, at), field.slice(at + 1)];
}

export function typedValue(text: string): FieldValue {
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text === 'null') return null;
  // "+7" and "007" are the number 7, as gh reads them.
  if (/^[+-]?\d+$/.test(text)) return { integer: BigInt(text).toString() };
  return text;
}

function readFieldFile(ctx: Context, key: string, path: string): Promise<string> {
  if (path === '') throw usageError(`invalid -F "${key}=@": expected @file, or @- for stdin`);
  return readFileOrStdin(ctx.io.stdin, path, `-F ${key}=@${path}`, {
    maxBytes: MAX_FIELD_FILE_BYTES,
    hint: 'a field is not that big: send a large body with --input',
  });
}

/** The value as text, for a query or a form: null is empty. */
export function fieldText(value: FieldValue): string {
  if (value === null) return '';
  if (typeof value === 'object') return value.integer;
  return String(value);
}

function fieldJson(value: FieldValue): string {
  return value !== null && typeof value === 'object' ? value.integer : JSON.stringify(value);
}

/** {"key": value, "list": [v1, v2]} from the fields, written by hand so that big whole numbers keep every digit. */
export function jsonBody(fields: Field[]): string {
  const entries = new Map<string, string | string[]>();
  for (const { key, value } of fields) {
    if (key.endsWith('[]')) {
      const name = key.slice(0, -2);
      const list = entries.get(name);
      entries.set(name, Array.isArray(list) ? [...list, fieldJson(value)] : [fieldJson(value)]);
    } else {
      entries.set(key, fieldJson(value));
    }
  }
  const members = [...entries].map(([key, json]) => `${JSON.stringify(key)}:${Array.isArray(json) ? `[${json.join(',')}]` : json}`);
  return `{${members.join(',')}}`;
}

/** key=value pairs for a query or a form ("key[]" repeats the key). */
export function textPairs(fields: Field[]): Array<[string, string]> {
  return fields.map(({ key, value }): [string, string] => [key.replace(/\[\]$/, ''), fieldText(value)]);
}
