// The days of `time report`: calendar dates YYYY-MM-DD, checked (exit 2) before any request.
import { usageError } from '../core/errors.js';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** `2026-11-02` as given; a missing value, another form or a day that does not exist is refused. */
export function reportDate(value: string | undefined, flag: string): string {
  if (value === undefined || value.trim() === '')
    throw usageError(`${flag} is required: the first and last day of the report, as YYYY-MM-DD`);
  const match = DATE.exec(value.trim());
  const day = match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : undefined;
  if (!match || day!.toISOString().slice(0, 10) !== match[0]) {
    throw usageError(`invalid ${flag} "${value}": expected a calendar date YYYY-MM-DD`, 'for example: --from 2026-11-01 --to 2026-11-30');
  }
  return match[0];
}

/** --from and --to, in order (both days included). */
export function reportRange(from: string | undefined, to: string | undefined): { from: string; to: string } {
  const range = { from: reportDate(from, '--from'), to: reportDate(to, '--to') };
  if (range.from > range.to)
    throw usageError(`--from ${range.from} is after --to ${range.to}`, 'the report covers the days from --from to --to, both included');
  return range;
}
