// Ids of projects and customers: positive integers, checked before any request. The tracker's ids may pass
// 2^53: those are bigints from the answer to the output and from the command line to the URL, never rounded.
import { usageError } from '../core/errors.js';
import { exactInteger } from '../core/json/big-integers.js';
import type { Id } from '../wire/time/ids.js';

/** The largest signed 64-bit integer: past it a number is no id a database hands out, only a typo. */
const MAX_ID = 2n ** 63n - 1n;

/** The id, or undefined when `text` is not a positive integer (of at most 64 bits). */
export function positiveId(text: string): Id | undefined {
  const trimmed = text.trim();
  if (!/^\d{1,30}$/.test(trimmed)) return undefined;
  const id = exactInteger(trimmed);
  return id > 0 && id <= MAX_ID ? id : undefined;
}

export function requireId(text: string, what: string): Id {
  const id = positiveId(text);
  if (id === undefined) throw usageError(`invalid ${what} "${text}": expected a positive whole number`);
  return id;
}
