import { describe, expect, it } from 'vitest';
import { isoWithOffset, parseTime, resolveRange } from '../../../src/catalog/time-range.js';
import { usageError as usage } from './helpers.js';

const NOW = new Date('2026-03-15T12:34:56.789Z');
const iso = (text: string) => isoWithOffset(parseTime(text, '--from', NOW));

describe('parseTime', () => {
  it('reads ISO 8601 with every offset spelling and converts to UTC', () => {
    expect(iso('2026-02-01T10:00:00Z')).toBe('2026-02-01T10:00:00.000Z');
    expect(iso('2026-02-01T10:00:00z')).toBe('2026-02-01T10:00:00.000Z');
    expect(iso('2026-02-01T10:00:00+03:00')).toBe('2026-02-01T07:00:00.000Z');
    expect(iso('2026-02-01T10:00+0300')).toBe('2026-02-01T07:00:00.000Z');
    expect(iso('2026-02-01T01:30:00-05')).toBe('2026-02-01T06:30:00.000Z');
    expect(iso('2026-02-01 10:00:00+05:30')).toBe('2026-02-01T04:30:00.000Z');
    expect(iso('2026-02-01T10:00:00.5Z')).toBe('2026-02-01T10:00:00.500Z');
    expect(iso('2026-02-01T10:00:00.123456+00:00')).toBe('2026-02-01T10:00:00.123456Z');
    expect(iso('2026-02-01T00:30:00+01:00')).toBe('2026-01-31T23:30:00.000Z');
  });

  it('keeps microseconds, as the service does (.123456Z, not .123Z)', () => {
    expect(iso('2026-02-01T10:00:00.000001Z')).toBe('2026-02-01T10:00:00.000001Z');
    expect(iso('2026-02-01T10:00:00.1234567+03:00')).toBe('2026-02-01T07:00:00.123456Z');
    expect(iso('1969-12-31T23:59:59.999999Z')).toBe('1969-12-31T23:59:59.999999Z');
  });

  // Python 3.11's fromisoformat (the service's parser) takes each of these; the UTC times are its own.
  it('takes every form the service takes: basic format, week dates, fractions after any component', () => {
    expect(iso('20260201T100000Z')).toBe('2026-02-01T10:00:00.000Z');
    expect(iso('20260201T1000+0300')).toBe('2026-02-01T07:00:00.000Z');
    expect(iso('2026-W05-7T10Z')).toBe('2026-02-01T10:00:00.000Z');
    expect(iso('2026-03-03T14.5Z')).toBe('2026-03-03T14:00:00.500Z');
    expect(iso('2026-03-03T10:00.5Z')).toBe('2026-03-03T10:00:00.500Z');
    expect(iso('2026-03-03T10,25+0300')).toBe('2026-03-03T07:00:00.250Z');
    expect(iso('2026-03-03T10:00:00.Z')).toBe('2026-03-03T10:00:00.000Z');
    expect(iso('2026-03-03T10:00+05:30.5')).toBe('2026-03-03T04:29:59.500Z');
    expect(iso('2026-03-03T10:00:00 Z')).toBe('2026-03-03T10:00:00.000Z');
    expect(iso('20260201')).toBe('2026-02-01T00:00:00.000Z');
  });

  it('refuses a UTC time outside the years 1 to 9999 (the service would fail on it)', () => {
    expect(usage(() => parseTime('9999-12-31T23:59:59-01:00', '--to', NOW)).message).toBe(
      'invalid --to "9999-12-31T23:59:59-01:00": in UTC that is outside the years 1 to 9999',
    );
  });

  it('reads a date as UTC midnight', () => {
    expect(iso('2026-02-01')).toBe('2026-02-01T00:00:00.000Z');
    expect(iso('2024-02-29')).toBe('2024-02-29T00:00:00.000Z');
  });

  it('reads relative times against now, to the whole second', () => {
    expect(iso('-30d')).toBe('2026-02-13T12:34:56.000Z');
    expect(iso('-12h')).toBe('2026-03-15T00:34:56.000Z');
    expect(iso('-15m')).toBe('2026-03-15T12:19:56.000Z');
    expect(iso('-2w')).toBe('2026-03-01T12:34:56.000Z');
    expect(iso('now')).toBe('2026-03-15T12:34:56.000Z');
    expect(iso('-0d')).toBe('2026-03-15T12:34:56.000Z');
  });

  it('refuses a time without an offset, saying how to add one', () => {
    const error = usage(() => parseTime('2026-02-01T10:00:00', '--from', NOW));
    expect(error.message).toBe('--from "2026-02-01T10:00:00" has no UTC offset, so the service cannot tell which time it means');
    expect(error.hint).toBe('add one: 2026-02-01T10:00:00Z for UTC, or 2026-02-01T10:00:00+03:00 for Moscow time');
    expect(usage(() => parseTime('2026-02-01 10:00', '--to', NOW)).message).toContain('--to "2026-02-01 10:00" has no UTC offset');
    for (const naive of ['2026-02-01T10', '2026-03-03T05:00.123456', '20260201T1000']) {
      expect(usage(() => parseTime(naive, '--to', NOW)).message).toBe(
        `--to "${naive}" has no UTC offset, so the service cannot tell which time it means`,
      );
    }
  });

  it('refuses what is not a time, naming the accepted forms', () => {
    for (const text of [
      'yesterday',
      '30d',
      '-30y',
      '+3d',
      '2026-2-1',
      '2026-02-01T10:00:00+3',
      '2026-02-01T10:00:00.5 Z',
      '2026-03-03T10:0+03',
      '',
      '1706745600',
    ]) {
      expect(usage(() => parseTime(text, '--from', NOW)).message).toMatch(
        /^invalid --from ".*": expected ISO 8601 with an offset .*, a date \(2026-02-01\) or a relative time \(-30d, -12h, -15m, -2w\)$/,
      );
    }
  });

  it('refuses dates and times that do not exist', () => {
    expect(usage(() => parseTime('2026-02-30', '--from', NOW)).message).toBe('invalid --from "2026-02-30": no such date or time');
    expect(usage(() => parseTime('2025-02-29T00:00Z', '--from', NOW)).message).toContain('no such date or time');
    expect(usage(() => parseTime('2026-02-01T24:00:00Z', '--from', NOW)).message).toContain('no such date or time');
    expect(usage(() => parseTime('2026-02-01T10:60Z', '--from', NOW)).message).toContain('no such date or time');
    expect(usage(() => parseTime('2026-02-01T10:00+24:00', '--from', NOW)).message).toBe(
      'invalid --from "2026-02-01T10:00+24:00": the offset +24:00 is out of range',
    );
  });
});

describe('resolveRange', () => {
  it('defaults --to to now and --from to 30 days before --to', () => {
    expect(resolveRange({}, NOW)).toEqual({ from: new Date('2026-02-13T12:34:56Z'), to: new Date('2026-03-15T12:34:56Z') });
    expect(resolveRange({ to: '2026-02-01' }, NOW)).toEqual({
      from: new Date('2026-01-02T00:00:00Z'),
      to: new Date('2026-02-01T00:00:00Z'),
    });
  });

  it('names the flag at fault', () => {
    expect(usage(() => resolveRange({ from: '-1d', to: 'later' }, NOW)).message).toMatch(/^invalid --to "later"/);
    expect(usage(() => resolveRange({ from: 'earlier' }, NOW)).message).toMatch(/^invalid --from "earlier"/);
  });
});
