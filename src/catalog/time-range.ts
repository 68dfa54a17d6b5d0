// --from/--to of `catalog dynamics`: ISO 8601 with an offset in every form the service takes (its Python
// fromisoformat: basic format, week dates, fractions anywhere), a date (UTC midnight) or a time relative to
// now (-30d), to the whole second. A time without an offset is refused: the service would refuse it too,
// and guessing the zone would shift every bucket. Times keep their microseconds, as the service does.
import { usageError } from '../core/errors.js';
import { DATETIME_MAX_MICROS, DATETIME_MIN_MICROS, pythonFromIsoFormat } from '../wire/catalog/python-isoformat.js';

export const DEFAULT_SPAN_DAYS = 30;

const MINUTE = 60_000;
/** 0001-01-01T00:00:00Z: the earliest time --from/--to take, relative or not. */
const EARLIEST = Date.parse('0001-01-01T00:00:00Z');
const UNIT_MS: Record<string, number> = { m: MINUTE, h: 60 * MINUTE, d: 24 * 60 * MINUTE, w: 7 * 24 * 60 * MINUTE };

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const RELATIVE = /^-(\d{1,9})([mhdw])$/;
// Date, `T` or a space, hh:mm[:ss[.ffffff]], then the offset (Z, ±hh, ±hhmm, ±hh:mm) or nothing.
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,6}))?)?([Zz]|[+-]\d{2}(?::?\d{2})?)?$/;

const FORMS = 'ISO 8601 with an offset (2026-02-01T10:00:00+03:00), a date (2026-02-01) or a relative time (-30d, -12h, -15m, -2w)';

/** A time to the microsecond: a Date plus the microseconds beyond its milliseconds. */
export class PreciseTime extends Date {
  constructor(
    ms: number,
    readonly extraMicros = 0,
  ) {
    super(ms);
  }

  /** Microseconds since the epoch. */
  get micros(): bigint {
    return BigInt(this.getTime()) * 1000n + BigInt(this.extraMicros);
  }

  static fromMicros(micros: bigint): PreciseTime {
    const ms = micros / 1000n - (micros % 1000n < 0n ? 1n : 0n);
    return new PreciseTime(Number(ms), Number(micros - ms * 1000n));
  }
}

export interface TimeRange {
  from: Date;
  to: Date;
}

/** Microseconds since the epoch of a time, with the microseconds a PreciseTime keeps. */
export function microsOf(time: Date): bigint {
  return time instanceof PreciseTime ? time.micros : BigInt(time.getTime()) * 1000n;
}

/** One --from/--to value; `flag` names it in messages. Relative times count from now, to the second. */
export function parseTime(text: string, flag: string, now: Date): Date {
  const value = text.trim();
  if (value === 'now') return wholeSecond(now);
  const relative = RELATIVE.exec(value);
  if (relative) {
    const time = new Date(wholeSecond(now).getTime() - Number(relative[1]) * UNIT_MS[relative[2]!]!);
    // -999999999w would be before the year 1 (and before what a Date can hold): no service has data then.
    if (!(time.getTime() >= EARLIEST)) throw usageError(`invalid ${flag} "${text}": that is before the year 1`);
    return time;
  }
  const date = DATE.exec(value);
  if (date) return calendarTime(value, flag, Number(date[1]), Number(date[2]), Number(date[3]));
  // The service's own rule, `Z` spelled as it spells it; a trailing lower-case z is taken too.
  const parsed = pythonFromIsoFormat(value.replace(/z$/, 'Z').replaceAll('Z', '+00:00'));
  if (!parsed) throw explainInvalid(text, value, flag);
  if (parsed.offsetMicros === null) {
    if (!parsed.hasTime) return PreciseTime.fromMicros(parsed.localMicros);
    throw usageError(
      `${flag} "${text}" has no UTC offset, so the service cannot tell which time it means`,
      `add one: ${value}Z for UTC, or ${value}+03:00 for Moscow time`,
    );
  }
  const utc = parsed.localMicros - parsed.offsetMicros;
  if (utc < DATETIME_MIN_MICROS || utc > DATETIME_MAX_MICROS)
    throw usageError(`invalid ${flag} "${text}": in UTC that is outside the years 1 to 9999`);
  return PreciseTime.fromMicros(utc);
}

/** Why a text the service would refuse is wrong: a date or offset out of range, or not a time at all. */
function explainInvalid(text: string, value: string, flag: string): Error {
  const match = DATE_TIME.exec(value);
  if (!match) return usageError(`invalid ${flag} "${text}": expected ${FORMS}`);
  const [, y, mo, d, h, mi, s = '0', , offset] = match;
  calendarTime(value, flag, Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s));
  if (offset !== undefined) offsetMinutes(offset, value, flag);
  return usageError(`invalid ${flag} "${text}": expected ${FORMS}`);
}

/** --to defaults to now, --from to DEFAULT_SPAN_DAYS before --to. */
export function resolveRange(options: { from?: string; to?: string }, now: Date): TimeRange {
  const to = options.to === undefined ? wholeSecond(now) : parseTime(options.to, '--to', now);
  const span = BigInt(DEFAULT_SPAN_DAYS * UNIT_MS.d!) * 1000n;
  const from = options.from === undefined ? PreciseTime.fromMicros(microsOf(to) - span) : parseTime(options.from, '--from', now);
  return { from, to };
}

/** How a time is sent to the service: ISO 8601 in UTC with its `Z` offset, microseconds kept when there are some. */
export function isoWithOffset(time: Date): string {
  const iso = time.toISOString();
  if (!(time instanceof PreciseTime) || time.extraMicros === 0) return iso;
  return `${iso.slice(0, -1)}${String(time.extraMicros).padStart(3, '0')}Z`;
}

/** Bucket times then read 10:17:07Z, not 10:17:07.278Z. */
function wholeSecond(time: Date): Date {
  return new Date(Math.floor(time.getTime() / 1000) * 1000);
}

function calendarTime(text: string, flag: string, year: number, month: number, day: number, hour = 0, minute = 0, second = 0): Date {
  const time = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  time.setUTCFullYear(year); // Date.UTC maps years 0–99 to 1900–1999
  const exact =
    time.getUTCFullYear() === year &&
    time.getUTCMonth() === month - 1 &&
    time.getUTCDate() === day &&
    time.getUTCHours() === hour &&
    time.getUTCMinutes() === minute &&
    time.getUTCSeconds() === second;
  if (year < 1 || !exact) throw usageError(`invalid ${flag} "${text}": no such date or time`);
  return time;
}

function offsetMinutes(offset: string, text: string, flag: string): number {
  if (offset === 'Z' || offset === 'z') return 0;
  const sign = offset.startsWith('-') ? -1 : 1;
  const digits = offset.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2) || '0');
  if (hours > 23 || minutes > 59) throw usageError(`invalid ${flag} "${text}": the offset ${offset} is out of range`);
  return sign * (hours * 60 + minutes);
}
