// Ids of projects and customers: positive integers, checked before any request.
import { usageError } from '../core/errors.js';

/** The id as a number, or undefined when `text` is not a positive integer. */
export function positiveId(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return undefined;
  const id = Number(trimmed);
  return id > 0 && Number.isSafeInteger(id) ? id : undefined;
}

export function requireId(text: string, what: string): number {
  const id = positiveId(text);
  if (id === undefined) throw usageError(`invalid ${what} "${text}": expected a positive whole number`);
  return id;
}
