// Times as people read them in a table: an instant in the terminal's time zone (TZ, else the system's) with its
// offset, to the second (`2026-11-25 14:03:07 +01:00`), and an age or a span in words ("3 days 4 hours"), the
// same in tables and in messages. Machine formats never come here: json, ndjson, csv and tsv keep the exact UTC
// ISO text the service sent, and ages in seconds.
// Which fields are times is a matter of their names, the services' own convention (observed_at, created_ts,
// date_created): the table of a list and the table of one record decide alike.

export type TimeKind = 'instant' | 'age';

const INSTANT_FIELD = /(?:^|_)(?:at|ts|until)$|_at_latest$|^date(?:_(?:created|updated|changed))?$/;

export function timeKind(field: string): TimeKind | undefined {
  if (field === 'age_seconds') return 'age';
  return INSTANT_FIELD.test(field) ? 'instant' : undefined;
}

/** An ISO date and time with an offset (Z, +01:00, -0200), any fraction of a second. */
const ZONED = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

/** Epoch ms of a value that is an instant: zoned ISO text, or epoch seconds or ms; undefined for anything else. */
function instantOf(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value < 1e12 ? value * 1000 : value;
  if (typeof value !== 'string' || !ZONED.test(value.trim())) return undefined;
  // Date.parse stops at milliseconds: a longer fraction is cut to three digits first.
  const ms = Date.parse(value.trim().replace(/(\.\d{3})\d+/, '$1'));
  return Number.isFinite(ms) ? ms : undefined;
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** The formatter of a zone; TZ's POSIX leading colon is dropped, and a zone Intl does not know is UTC (as for Node itself). */
function formatterFor(timeZone: string | undefined): Intl.DateTimeFormat {
  const zone = timeZone?.replace(/^:/, '') || undefined;
  const key = zone ?? '';
  let format = formats.get(key);
  if (!format) {
    const options: Intl.DateTimeFormatOptions = {
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'longOffset',
    };
    try {
      format = new Intl.DateTimeFormat('en-US', { ...options, timeZone: zone });
    } catch {
      format = new Intl.DateTimeFormat('en-US', { ...options, timeZone: 'UTC' });
    }
    formats.set(key, format);
  }
  return format;
}

/** `2026-11-25 14:03:07 +01:00` for an instant in the zone; anything that is not an instant comes back as it was. */
export function localTime(value: unknown, timeZone?: string): unknown {
  const ms = instantOf(value);
  if (ms === undefined) return value;
  const parts = Object.fromEntries(
    formatterFor(timeZone)
      .formatToParts(new Date(ms))
      .map((part) => [part.type, part.value]),
  );
  const offset = (parts.timeZoneName ?? 'GMT').replace(/^GMT/, '') || '+00:00';
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second} ${offset}`;
}

const UNITS: Array<[name: string, seconds: number]> = [
  ['year', 365 * 86_400],
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
];

const plural = (count: number, unit: string) => `${count} ${unit}${count === 1 ? '' : 's'}`;

/**
 * An age or a span of time in words: its largest whole unit, and under ten of those the next unit too ("3 days
 * 4 hours", "45 minutes", "120 days"); days up to two years; "under a minute" below one.
 */
export function ageText(seconds: number): string {
  if (!(seconds >= 60)) return 'under a minute';
  const at = UNITS.findIndex(([unit, size]) => seconds >= (unit === 'year' ? 2 * size : size));
  const [name, size] = UNITS[at]!;
  const count = Math.floor(seconds / size);
  const next = UNITS[at + 1];
  const rest = next && count < 10 ? Math.floor((seconds - count * size) / next[1]) : 0;
  return rest > 0 ? `${plural(count, name)} ${plural(rest, next![0])}` : plural(count, name);
}

/** An age in seconds as a table shows it (ageText); anything that is not one comes back as it was. */
export function relativeAge(value: unknown): unknown {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return value;
  return ageText(value);
}

/** A table cell of the named field: times as people read them, everything else as it was. */
export function readableTime(field: string, value: unknown, timeZone?: string): unknown {
  const kind = timeKind(field);
  return kind === 'instant' ? localTime(value, timeZone) : kind === 'age' ? relativeAge(value) : value;
}
