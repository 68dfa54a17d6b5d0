// Timestamps of the catalog service: ISO 8601 parsing the way the public service does it (Python's
// `datetime.fromisoformat` after `Z` → `+00:00`), and UTC output with a `Z` suffix. An instant is a bigint
// of microseconds since the epoch, so that bucket arithmetic stays exact like Python's timedelta.

import { civilFromDays, DATETIME_MAX_MICROS, DATETIME_MIN_MICROS, pythonFromIsoFormat } from '../../wire/catalog/python-isoformat.js';
import { pythonStrip } from './values.js';

export type Instant = bigint;

const MICROS_PER_SECOND = 1_000_000n;
const MIN_INSTANT = DATETIME_MIN_MICROS;
const MAX_INSTANT = DATETIME_MAX_MICROS;

export class IsoDateTimeError extends Error {}

/**
 * The request rule of the public service: stripped, `Z` → `+00:00` everywhere, must parse, must carry an
 * offset; converted to UTC. Past the years 1–9999 in UTC Python overflows (a RangeError here: its 500).
 */
export function parseRequestDateTime(value: string): Instant {
  const token = pythonStrip(value);
  if (!token) throw new IsoDateTimeError('datetime value must be non-empty');
  const parsed = pythonFromIsoFormat(token.replaceAll('Z', '+00:00'));
  if (!parsed) throw new IsoDateTimeError('datetime must be valid ISO8601');
  if (parsed.offsetMicros === null) throw new IsoDateTimeError('datetime must include timezone');
  const instant = parsed.localMicros - parsed.offsetMicros;
  if (instant < MIN_INSTANT || instant > MAX_INSTANT) throw new RangeError('date value out of range');
  return instant;
}

/**
 * Timestamps already read: a page of products reads two of every row it groups, and parsing them was a
 * quarter of the time the service took to answer `--all`. Bounded: cleared when full.
 */
const readInstants = new Map<string, Instant | null>();
const READ_INSTANTS_KEPT = 200_000;

/**
 * A timestamp read from the database, in whatever ISO form it was stored (`+00:00`, `Z`, a space for `T`,
 * another offset). A value without an offset (the converter's own naive UTC) is taken as UTC. Null when
 * missing or unreadable.
 */
export function readDbInstant(value: unknown): Instant | null {
  if (value === null || value === undefined) return null;
  const text = String(value);
  let instant = readInstants.get(text);
  if (instant === undefined) {
    const token = pythonStrip(text);
    const parsed = token ? pythonFromIsoFormat(token.replaceAll('Z', '+00:00')) : null;
    instant = parsed ? parsed.localMicros - (parsed.offsetMicros ?? 0n) : null;
    if (readInstants.size >= READ_INSTANTS_KEPT) readInstants.clear();
    readInstants.set(text, instant);
  }
  return instant;
}

/** A database timestamp rendered as the service renders it (UTC, `Z`), or null when unreadable. */
export function dbTimestampToIsoZ(value: unknown): string | null {
  const instant = readDbInstant(value);
  return instant === null ? null : formatIsoZ(instant);
}

/** Python's `isoformat()` of a UTC datetime with `+00:00` replaced by `Z`: microseconds only when non-zero. */
export function formatIsoZ(instant: Instant): string {
  if (instant < MIN_INSTANT || instant > MAX_INSTANT) throw new RangeError('date value out of range');
  let days = instant / 86_400_000_000n;
  let rest = instant % 86_400_000_000n;
  if (rest < 0n) {
    rest += 86_400_000_000n;
    days -= 1n;
  }
  const { year, month, day } = civilFromDays(Number(days));
  const micros = Number(rest % MICROS_PER_SECOND);
  const seconds = Number(rest / MICROS_PER_SECOND);
  const hh = Math.floor(seconds / 3600);
  const mm = Math.floor((seconds % 3600) / 60);
  const ss = seconds % 60;
  const fraction = micros ? `.${pad(micros, 6)}` : '';
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${pad(hh, 2)}:${pad(mm, 2)}:${pad(ss, 2)}${fraction}Z`;
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}
