// Python's `datetime.fromisoformat` (CPython 3.11+, the C implementation the public catalog service runs):
// the service's rule for dates, shared by the client (--from/--to take every form it takes) and the sandbox
// (which answers as the service does). Byte for byte: the same separator guessing, the same lenient time and offset scanner (a fraction after any
// component, one stray character before an offset, extra digits dropped), the same range checks. The
// result is the local wall time in microseconds since the epoch plus the offset, or null where Python
// raises ValueError.

export interface IsoFields {
  /** Wall-clock microseconds since 1970-01-01T00:00 of the text's own calendar. */
  localMicros: bigint;
  /** Offset east of UTC in microseconds; null for a naive value (no offset). */
  offsetMicros: bigint | null;
  /** False for a date alone. */
  hasTime: boolean;
}

/** 0001-01-01T00:00:00 and 9999-12-31T23:59:59.999999 in microseconds since the epoch: what a datetime holds. */
export const DATETIME_MIN_MICROS = BigInt(daysFromCivil(1, 1, 1)) * 86_400_000_000n;
export const DATETIME_MAX_MICROS = BigInt(daysFromCivil(10000, 1, 1)) * 86_400_000_000n - 1n;

const NUL = 0;
const DASH = 0x2d;
const COLON = 0x3a;
const DOT = 0x2e;
const COMMA = 0x2c;
const PLUS = 0x2b;
const LETTER_W = 0x57;
const LETTER_Z = 0x5a;
const MICROS_PER_DAY = 86_400_000_000n;
const FRACTION_SCALE = [100000, 10000, 1000, 100, 10, 1];

/** Bytes of the UTF-8 text; reading past the end gives NUL, like C's terminated string. */
class Bytes {
  constructor(private readonly data: Uint8Array) {}
  get length(): number {
    return this.data.length;
  }
  at(index: number): number {
    return index >= 0 && index < this.data.length ? this.data[index]! : NUL;
  }
}

const isDigit = (byte: number) => byte >= 0x30 && byte <= 0x39;

/** `count` ASCII digits at `at`, or null. */
function digits(bytes: Bytes, at: number, count: number): number | null {
  let value = 0;
  for (let i = 0; i < count; i += 1) {
    const byte = bytes.at(at + i);
    if (!isDigit(byte)) return null;
    value = value * 10 + (byte - 0x30);
  }
  return value;
}

export function pythonFromIsoFormat(text: string): IsoFields | null {
  if ([...text].length < 7) return null;
  const bytes = new Bytes(Buffer.from(text, 'utf8'));
  const separator = findSeparator(bytes);
  if (separator === null) return null;
  const date = parseDate(bytes, separator);
  if (!date) return null;
  let clock: Clock = { hour: 0, minute: 0, second: 0, micro: 0, offsetSeconds: null, offsetMicro: 0 };
  if (bytes.length > separator) {
    // Any one character separates the date from the time, however many bytes it takes.
    const start = separator + utf8Width(bytes.at(separator));
    const parsed = parseTime(bytes, start, bytes.length);
    if (!parsed) return null;
    clock = parsed;
  }
  if (clock.hour > 23 || clock.minute > 59 || clock.second > 59) return null;
  const days = daysFromCivil(date.year, date.month, date.day);
  const localMicros =
    BigInt(days) * MICROS_PER_DAY + BigInt((clock.hour * 3600 + clock.minute * 60 + clock.second) * 1_000_000 + clock.micro);
  const hasTime = bytes.length > separator;
  if (clock.offsetSeconds === null) return { localMicros, offsetMicros: null, hasTime };
  // A whole-second offset of zero is UTC, whatever its fraction said.
  if (clock.offsetSeconds === 0) return { localMicros, offsetMicros: 0n, hasTime };
  const offsetMicros = BigInt(clock.offsetSeconds) * 1_000_000n + BigInt(clock.offsetMicro);
  if (offsetMicros >= MICROS_PER_DAY || offsetMicros <= -MICROS_PER_DAY) return null;
  return { localMicros, offsetMicros, hasTime };
}

function utf8Width(lead: number): number {
  if (lead >= 0xf0) return 4;
  if (lead >= 0xe0) return 3;
  if (lead >= 0xc0) return 2;
  return 1;
}

/** Where the date ends, by the shape of its first characters (CPython's _find_isoformat_datetime_separator). */
function findSeparator(bytes: Bytes): number | null {
  const length = bytes.length;
  if (length === 7) return 7;
  if (bytes.at(4) === DASH) {
    if (bytes.at(5) !== LETTER_W) return 10; // YYYY-MM-DD
    if (length < 8) return null;
    if (length > 8 && bytes.at(8) === DASH) {
      if (length === 9) return null;
      // YYYY-Www-D, unless a digit at 10 says the dash at 8 was the separator.
      return length > 10 && isDigit(bytes.at(10)) ? 8 : 10;
    }
    return 8; // YYYY-Www
  }
  if (bytes.at(4) === LETTER_W) {
    let index = 7;
    while (index < length && isDigit(bytes.at(index))) index += 1;
    if (index < 9) return index;
    return index % 2 === 0 ? 7 : 8;
  }
  return 8; // YYYYMMDD
}

interface CivilDate {
  year: number;
  month: number;
  day: number;
}

/** The date part, which may be followed by anything: Python looks no further than it needs. */
function parseDate(bytes: Bytes, length: number): CivilDate | null {
  const year = digits(bytes, 0, 4);
  if (year === null) return null;
  let at = 4;
  const dashed = bytes.at(at) === DASH;
  if (dashed) at += 1;
  if (bytes.at(at) === LETTER_W) {
    at += 1;
    const week = digits(bytes, at, 2);
    if (week === null) return null;
    at += 2;
    let weekday = 1;
    if (at < length) {
      if (dashed) {
        if (bytes.at(at) !== DASH) return null;
        at += 1;
      }
      const parsed = digits(bytes, at, 1);
      if (parsed === null) return null;
      weekday = parsed;
    }
    return isoWeekDate(year, week, weekday);
  }
  const month = digits(bytes, at, 2);
  if (month === null) return null;
  at += 2;
  if (dashed) {
    if (bytes.at(at) !== DASH) return null;
    at += 1;
  }
  const day = digits(bytes, at, 2);
  if (day === null) return null;
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return { year, month, day };
}

function isoWeekDate(year: number, week: number, weekday: number): CivilDate | null {
  if (week <= 0 || week >= 53) {
    // Week 53 exists in years starting on a Thursday, and in leap years starting on a Wednesday.
    const firstWeekday = (((daysFromCivil(year, 1, 1) + 3) % 7) + 7) % 7; // 0 = Monday
    if (week !== 53 || !(firstWeekday === 3 || (firstWeekday === 2 && isLeap(year)))) return null;
  }
  if (weekday <= 0 || weekday >= 8) return null;
  const jan4 = daysFromCivil(year, 1, 4);
  const week1Monday = jan4 - ((((jan4 + 3) % 7) + 7) % 7);
  const date = civilFromDays(week1Monday + (week - 1) * 7 + weekday - 1);
  return date.year >= 1 && date.year <= 9999 ? date : null;
}

interface Clock {
  hour: number;
  minute: number;
  second: number;
  micro: number;
  /** Signed whole seconds of the offset; null when there is none. */
  offsetSeconds: number | null;
  /** Signed microseconds of the offset beyond its seconds. */
  offsetMicro: number;
}

interface Components {
  values: [number, number, number];
  micro: number;
  /** CPython's return code: 0 clean end, 1 something left over, negative a failure. */
  code: number;
}

/** `HH[:?MM[:?SS]][{.,}f+]` between `start` and `end` (CPython's parse_hh_mm_ss_ff). */
function parseComponents(bytes: Bytes, start: number, end: number): Components {
  const values: [number, number, number] = [0, 0, 0];
  let at = start;
  let separated = true;
  for (let i = 0; i < 3; i += 1) {
    const value = digits(bytes, at, 2);
    if (value === null) return { values, micro: 0, code: -3 };
    values[i] = value;
    at += 2;
    const next = bytes.at(at);
    at += 1;
    if (i === 0) separated = next === COLON;
    if (at >= end) return { values, micro: 0, code: next !== NUL ? 1 : 0 };
    if (separated && next === COLON) continue;
    if (next === DOT || next === COMMA) {
      break;
    }
    if (!separated) at -= 1;
    else return { values, micro: 0, code: -4 };
  }
  const remaining = end - at;
  const width = Math.min(remaining, 6);
  const fraction = width > 0 ? digits(bytes, at, width) : 0;
  if (fraction === null) return { values, micro: 0, code: -3 };
  at += width;
  const micro = width > 0 ? fraction * FRACTION_SCALE[width - 1]! : 0;
  while (isDigit(bytes.at(at))) at += 1;
  return { values, micro, code: bytes.at(at) !== NUL ? 1 : 0 };
}

/** The time and optional offset (CPython's parse_isoformat_time). */
function parseTime(bytes: Bytes, start: number, end: number): Clock | null {
  let tzAt = start;
  do {
    const byte = bytes.at(tzAt);
    if (byte === LETTER_Z || byte === PLUS || byte === DASH) break;
    tzAt += 1;
  } while (tzAt < end);

  const time = parseComponents(bytes, start, tzAt);
  if (time.code < 0) return null;
  const [hour, minute, second] = time.values;
  const clock: Clock = { hour, minute, second, micro: time.micro, offsetSeconds: null, offsetMicro: 0 };
  if (tzAt >= end) return time.code === 1 ? null : clock;
  if (bytes.at(tzAt) === LETTER_Z) {
    return bytes.at(tzAt + 1) !== NUL ? null : { ...clock, offsetSeconds: 0 };
  }
  const sign = bytes.at(tzAt) === DASH ? -1 : 1;
  const offset = parseComponents(bytes, tzAt + 1, end);
  if (offset.code !== 0) return null;
  const [oh, om, os] = offset.values;
  return { ...clock, offsetSeconds: sign * (oh * 3600 + om * 60 + os), offsetMicro: sign * offset.micro };
}

// --- civil calendar (proleptic Gregorian), after Howard Hinnant's algorithms ----------------------------

export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

export function civilFromDays(days: number): CivilDate {
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

const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeap(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}
