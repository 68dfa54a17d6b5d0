// ISO 8601 as the catalog service reads it (Python's fromisoformat) and writes it (UTC with Z).
import { describe, expect, it } from 'vitest';
import { formatIsoZ, parseRequestDateTime, readDbInstant } from '../../../src/sandbox/catalog/time.js';

const z = (text: string) => formatIsoZ(parseRequestDateTime(text));

describe('catalog timestamps', () => {
  it('reads the forms fromisoformat accepts, converting to UTC', () => {
    expect(z('2026-03-01T10:00:00Z')).toBe('2026-03-01T10:00:00Z');
    expect(z('2026-03-01T10:00:00+03:00')).toBe('2026-03-01T07:00:00Z');
    expect(z('2026-03-01 10:00+0530')).toBe('2026-03-01T04:30:00Z');
    expect(z('2026-03-01T10-02')).toBe('2026-03-01T12:00:00Z');
    expect(z('20260301T100000Z')).toBe('2026-03-01T10:00:00Z');
    expect(z('2026-03-01T00:30:00.5+01:00')).toBe('2026-02-28T23:30:00.500000Z');
    expect(z('2026-03-01T10:00:00,1234567Z')).toBe('2026-03-01T10:00:00.123456Z');
    expect(z('2026-W09-7T10:00Z')).toBe('2026-03-01T10:00:00Z');
    expect(z(' 2024-02-29T23:59:59-00:30 ')).toBe('2024-03-01T00:29:59Z');
  });

  it('refuses what it refuses', () => {
    for (const bad of [
      '2026-02-30T00:00:00Z',
      '2026-03-01T10:00:00+24:00',
      '2026-03-01T',
      'March 1st',
      '2026-3-1T10:00Z',
      '2026-03-01T10:00:00z',
    ]) {
      expect(() => parseRequestDateTime(bad), bad).toThrow('datetime must be valid ISO8601');
    }
    expect(() => parseRequestDateTime('2026-03-01T10:00:00')).toThrow('datetime must include timezone');
    expect(() => parseRequestDateTime('2026-03-01')).toThrow('datetime must include timezone');
  });

  // Each answer below is what Python 3.11's fromisoformat (then astimezone(UTC)) gives for the same text.
  it('accepts exactly the lenient forms CPython accepts', () => {
    const python: Array<[string, string]> = [
      ['2026-03-03T14.5Z', '2026-03-03T14:00:00.500000Z'],
      ['2026-03-03T10:00.5Z', '2026-03-03T10:00:00.500000Z'],
      ['2026-03-03T10,25+0300', '2026-03-03T07:00:00.250000Z'],
      ['2026-03-03T10:00:00.Z', '2026-03-03T10:00:00Z'],
      ['2026-03-03T10:00+05:30.5', '2026-03-03T04:29:59.500000Z'],
      ['2026-03-03T10:00:00 Z', '2026-03-03T10:00:00Z'],
      ['2026-03-03T10:00:00x+03', '2026-03-03T07:00:00Z'],
      ['2026-03-03T10:+03', '2026-03-03T07:00:00Z'],
      ['2026-03-03T10:00:00+05:99', '2026-03-03T03:21:00Z'],
      ['2026-03-03T10:00:00+03:00:00:00', '2026-03-03T07:00:00Z'],
      ['2026-03-03T10:00:00-0000.5', '2026-03-03T10:00:00Z'],
      ['2026-03-03é10Z', '2026-03-03T10:00:00Z'],
      ['2026-W53T00Z', '2026-12-28T00:00:00Z'],
      ['2026W102T10Z', '2026-03-03T10:00:00Z'],
    ];
    for (const [text, utc] of python) expect(z(text), text).toBe(utc);
    for (const bad of [
      '2026-03-03T10:00:00.5 Z',
      '2026-03-03T10:00:00xy+03',
      '2026-03-03T10:0+03',
      '2027-W53T00Z',
      '2026W10-2',
      '2026-03-03T10:00:00+03:0',
      '2026-03-03T10Z5',
    ]) {
      expect(() => parseRequestDateTime(bad), bad).toThrow('datetime must be valid ISO8601');
    }
    expect(() => parseRequestDateTime('2026-03-03T05:00.123456')).toThrow('datetime must include timezone');
    // Python's strip(): \x85 and \x1c are whitespace to it, a byte-order mark is not.
    expect(z('\u00852026-03-01T10:00:00Z\u001c')).toBe('2026-03-01T10:00:00Z');
    expect(() => parseRequestDateTime('\ufeff2026-03-01T10:00:00Z')).toThrow('datetime must be valid ISO8601');
    expect(() => parseRequestDateTime('2026-03-03T10:00:00x')).toThrow('datetime must be valid ISO8601');
  });

  it("overflows (the service's 500) past the year 9999 or before the year 1 in UTC", () => {
    expect(() => parseRequestDateTime('9999-12-31T23:59:59-00:01')).toThrow(RangeError);
    expect(() => parseRequestDateTime('0001-01-01T00:00:00+00:01')).toThrow(RangeError);
    expect(z('0001-01-01T00:00:00-00:01')).toBe('0001-01-01T00:01:00Z');
  });

  it('reads stored values in any spelling, naive ones as UTC', () => {
    const instant = readDbInstant('2026-03-01T10:00:00+00:00');
    expect(readDbInstant('2026-03-01T10:00:00Z')).toBe(instant);
    expect(readDbInstant('2026-03-01 13:00:00+03:00')).toBe(instant);
    expect(readDbInstant('2026-03-01 10:00:00')).toBe(instant);
    expect(readDbInstant('')).toBeNull();
    expect(readDbInstant('garbage')).toBeNull();
    expect(readDbInstant(null)).toBeNull();
    // Read again (remembered after the first time): the same answers.
    expect(readDbInstant('2026-03-01 13:00:00+03:00')).toBe(instant);
    expect(readDbInstant('garbage')).toBeNull();
    expect(readDbInstant(' 2026-03-01T10:00:00Z ')).toBe(instant);
    expect(readDbInstant(' 2026-03-01T10:00:00Z ')).toBe(instant);
  });

  it('writes microseconds only when there are some, and years before 1000 with four digits', () => {
    expect(formatIsoZ(parseRequestDateTime('0999-12-31T23:59:59.000001Z'))).toBe('0999-12-31T23:59:59.000001Z');
    expect(formatIsoZ(parseRequestDateTime('1969-12-31T23:59:59Z'))).toBe('1969-12-31T23:59:59Z');
  });
});
