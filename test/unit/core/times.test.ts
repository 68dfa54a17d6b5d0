// Times in tables: the terminal's zone with its offset, to the second; ages in their largest whole unit; and
// everything that is not a time left as it was.
import { describe, expect, it } from 'vitest';
import { localTime, readableTime, relativeAge, timeKind } from '../../../src/core/term/times.js';

describe('localTime', () => {
  it('shows an instant in the zone, with the offset of that day (summer and winter)', () => {
    expect(localTime('2026-11-25T13:03:07Z', 'Europe/Paris')).toBe('2026-11-25 14:03:07 +01:00');
    expect(localTime('2026-07-01T13:03:07Z', 'Europe/Paris')).toBe('2026-07-01 15:03:07 +02:00');
    expect(localTime('2026-11-25T13:03:07.999999Z', 'America/St_Johns')).toBe('2026-11-25 09:33:07 -03:30');
    expect(localTime('2026-11-25T13:03:07Z', 'UTC')).toBe('2026-11-25 13:03:07 +00:00');
  });

  it('reads every form the services send: offsets with and without a colon, epoch seconds and milliseconds', () => {
    expect(localTime('2019-02-14T02:59:42-0200', 'Asia/Tokyo')).toBe('2019-02-14 13:59:42 +09:00');
    expect(localTime('2026-02-01T10:00:00+03:00', 'UTC')).toBe('2026-02-01 07:00:00 +00:00');
    expect(localTime(1_764_075_787, 'UTC')).toBe('2025-11-25 13:03:07 +00:00');
    expect(localTime(1_764_075_787_000, 'UTC')).toBe('2025-11-25 13:03:07 +00:00');
  });

  it('leaves what it cannot place in time as it was: a date, a time without an offset, text, null', () => {
    for (const value of ['2026-02-01', '2026-02-01T10:00:00', 'soon', '', null, undefined, true, -5, { at: 1 }])
      expect(localTime(value, 'Europe/Paris')).toBe(value);
  });

  it("takes TZ's leading colon, and a zone it does not know as UTC, as Node does", () => {
    expect(localTime('2026-11-25T13:03:07Z', ':Europe/Paris')).toBe('2026-11-25 14:03:07 +01:00');
    expect(localTime('2026-11-25T13:03:07Z', 'Mars/Olympus_Mons')).toBe('2026-11-25 13:03:07 +00:00');
  });
});

describe('relativeAge', () => {
  it.each([
    [0, 'under a minute'],
    [59.9, 'under a minute'],
    [60, '1 minute'],
    [3599, '59 minutes'],
    [3600, '1 hour'],
    [3 * 3600 + 60, '3 hours 1 minute'],
    [93_784, '1 day 2 hours'],
    [3 * 86_400 + 5, '3 days'],
    [12 * 86_400 + 7200, '12 days'],
    [100 * 86_400, '100 days'],
    [729 * 86_400, '729 days'],
    [2 * 365 * 86_400, '2 years'],
  ])('%s s is "%s"', (seconds, text) => {
    expect(relativeAge(seconds)).toBe(text);
  });

  it('leaves what is not an age as it was', () => {
    for (const value of [null, undefined, -1, '3 days', Number.NaN]) expect(relativeAge(value)).toBe(value);
  });
});

describe('which fields are times', () => {
  it('goes by the names the services use', () => {
    for (const field of ['observed_at', 'observed_at_latest', 'created_ts', 'updated_at', 'date_created', 'date_changed', 'date', 'at'])
      expect(timeKind(field), field).toBe('instant');
    expect(timeKind('age_seconds')).toBe('age');
    for (const field of ['format', 'stats', 'status', 'updated', 'data', 'price', 'latitude'])
      expect(timeKind(field), field).toBeUndefined();
    expect(readableTime('price', '2026-11-25T13:03:07Z', 'Europe/Paris')).toBe('2026-11-25T13:03:07Z');
    expect(readableTime('age_seconds', 7200)).toBe('2 hours');
  });
});
