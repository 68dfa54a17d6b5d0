// Timestamps of the catalog service: ISO 8601 parsing the way the public service does it (Python's
// `datetime.fromisoformat` after `Z` → `+00:00`), and UTC output with a `Z` suffix. An instant is a bigint
// of microseconds since the epoch, so that bucket arithmetic stays exact like Python's timedelta.

export type Instant = bigint;

const MICROS_PER_SECOND = 1_000_000n;

export interface ParsedDateTime {
  instant: Instant;
  /** False when the text had no offset (a naive datetime in Python). */
  aware: boolean;
}

export class IsoDateTimeError extends Error {}

/** The request rule of the public service: trimmed, must parse, must carry an offset; converted to UTC. */
export function parseRequestDateTime(value: string): Instant {
  const token = value.trim();
  if (!token) throw new IsoDateTimeError('datetime value must be non-empty');
  const parsed = parseIsoDateTime(token.replaceAll('Z', '+00:00'));
  if (!parsed) throw new IsoDateTimeError('datetime must be valid ISO8601');
  if (!parsed.aware) throw new IsoDateTimeError('datetime must include timezone');
  return parsed.instant;
}

/**
 * A timestamp read from the database, in whatever ISO form it was stored (`+00:00`, `Z`, a space for `T`,
 * another offset). A value without an offset is taken as UTC. Null when missing or unreadable.
 */
export function readDbInstant(value: unknown): Instant | null {
  if (value === null || value === undefined) return null;
  const token = String(value).trim();
  if (!token) return null;
  const parsed = parseIsoDateTime(token.replaceAll('Z', '+00:00'));
  return parsed ? parsed.instant : null;
}

/** A database timestamp rendered as the service renders it (UTC, `Z`), or null when unreadable. */
export function dbTimestampToIsoZ(value: unknown): string | null {
  const instant = readDbInstant(value);
  return instant === null ? null : formatIsoZ(instant);
}

/** Python's `isoformat()` of a UTC datetime with `+00:00` replaced by `Z`: microseconds only when non-zero. */
export function formatIsoZ(instant: Instant): string {
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

// --- parsing ----------------------------------------------------------------------------------------------

const EXTENDED_DATE = /^(\d{4})-(\d{2})-(\d{2})/;
const EXTENDED_WEEK = /^(\d{4})-W(\d{2})(?:-(\d))?/;
const BASIC_DATE = /^(\d{4})(\d{2})(\d{2})/;
const BASIC_WEEK = /^(\d{4})W(\d{2})(\d)?/;
const EXTENDED_TIME = /^(\d{2})(?::(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?$/;
const BASIC_TIME = /^(\d{2})(?:(\d{2})(?:(\d{2})(?:[.,](\d+))?)?)?$/;

/** Python 3.11+ `datetime.fromisoformat` (the forms it accepts), or null where Python raises ValueError. */
export function parseIsoDateTime(text: string): ParsedDateTime | null {
  const date = parseDatePart(text);
  if (!date) return null;
  const rest = text.slice(date.length);
  if (rest === '') return { instant: BigInt(date.days) * 86_400_000_000n, aware: false };
  // Python accepts any single character between the date and the time.
  const [separator] = rest;
  const timeText = rest.slice(separator!.length);
  if (!timeText) return null;

  let clock = timeText;
  let offsetMicros: bigint | null = null;
  const tzAt = firstIndexOf(timeText, ['+', '-', 'Z']);
  if (tzAt >= 0) {
    clock = timeText.slice(0, tzAt);
    const tzText = timeText.slice(tzAt);
    if (tzText === 'Z') {
      offsetMicros = 0n;
    } else {
      const sign = tzText[0] === '-' ? -1n : tzText[0] === '+' ? 1n : 0n;
      if (sign === 0n) return null;
      const offset = parseClock(tzText.slice(1));
      if (offset === null || offset >= 86_400_000_000n) return null;
      offsetMicros = sign * offset;
    }
  }
  const clockMicros = parseClock(clock);
  if (clockMicros === null) return null;
  const local = BigInt(date.days) * 86_400_000_000n + clockMicros;
  return offsetMicros === null ? { instant: local, aware: false } : { instant: local - offsetMicros, aware: true };
}

function firstIndexOf(text: string, needles: string[]): number {
  let best = -1;
  for (const needle of needles) {
    const at = text.indexOf(needle);
    if (at >= 0 && (best < 0 || at < best)) best = at;
  }
  return best;
}

function parseDatePart(text: string): { days: number; length: number } | null {
  let match = EXTENDED_DATE.exec(text);
  if (match) return calendarDate(match, 10);
  match = EXTENDED_WEEK.exec(text);
  if (match) return weekDate(match, match[3] === undefined ? 8 : 10);
  match = BASIC_WEEK.exec(text);
  if (match) return weekDate(match, match[3] === undefined ? 7 : 8);
  match = BASIC_DATE.exec(text);
  if (match) return calendarDate(match, 8);
  return null;
}

function calendarDate(match: RegExpExecArray, length: number): { days: number; length: number } | null {
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return { days: daysFromCivil(year, month, day), length };
}

function weekDate(match: RegExpExecArray, length: number): { days: number; length: number } | null {
  const year = Number(match[1]);
  const week = Number(match[2]);
  const weekday = match[3] === undefined ? 1 : Number(match[3]);
  if (year < 1 || week < 1 || weekday < 1 || weekday > 7) return null;
  // ISO week 1 is the week with the year's first Thursday; its Monday is the base.
  const jan4 = daysFromCivil(year, 1, 4);
  const jan4Weekday = ((jan4 + 3) % 7 + 7) % 7; // 0 = Monday (1970-01-01 was a Thursday)
  const week1Monday = jan4 - jan4Weekday;
  const weeksInYear = isoWeeksInYear(year);
  if (week > weeksInYear) return null;
  return { days: week1Monday + (week - 1) * 7 + (weekday - 1), length };
}

function isoWeeksInYear(year: number): number {
  const p = (y: number) => (y + Math.floor(y / 4) - Math.floor(y / 100) + Math.floor(y / 400)) % 7;
  return p(year) === 4 || p(year - 1) === 3 ? 53 : 52;
}

/** `HH`, `HH:MM`, `HH:MM:SS[.f]`, `HHMM`, `HHMMSS[.f]` → microseconds into the day. */
function parseClock(text: string): bigint | null {
  const match = EXTENDED_TIME.exec(text) ?? BASIC_TIME.exec(text);
  if (!match) return null;
  const hours = Number(match[1]);
  const minutes = match[2] === undefined ? 0 : Number(match[2]);
  const seconds = match[3] === undefined ? 0 : Number(match[3]);
  if (hours > 23 || minutes > 59 || seconds > 59) return null;
  // Python keeps six digits of the fraction and drops the rest.
  const fraction = match[4] === undefined ? 0 : Number(match[4].slice(0, 6).padEnd(6, '0'));
  return BigInt((hours * 3600 + minutes * 60 + seconds) * 1_000_000 + fraction);
}

// --- civil calendar (proleptic Gregorian), after Howard Hinnant's algorithms ----------------------------

function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function civilFromDays(days: number): { year: number; month: number; day: number } {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}
