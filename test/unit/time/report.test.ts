// time report's arithmetic and shapes: exact sums of seconds and amounts, grouping, loose rows, the dates.
import { describe, expect, it } from 'vitest';
import { reportDate, reportRange } from '../../../src/time/report-dates.js';
import { reportLines } from '../../../src/time/report-lines.js';
import { buildReport, formatDuration, sumDecimals } from '../../../src/time/report.js';
import { tridentError } from './fixtures.js';

const row = (fields: Record<string, unknown>) => ({
  project_id: 57,
  project_name: 'Web',
  user_name: 'Ana',
  date_execution: '2026-11-02',
  time_start: '09:00:00',
  time_end: '10:00:00',
  time_total: '01:00:00',
  rate_hour: null,
  rate_total: null,
  ...fields,
});

describe('durations and amounts', () => {
  it('formats seconds as HH:MM:SS with hours past 24 and 99', () => {
    expect(formatDuration(0)).toBe('00:00:00');
    expect(formatDuration(59)).toBe('00:00:59');
    expect(formatDuration(93_784)).toBe('26:03:04');
    expect(formatDuration(360_000 + 61)).toBe('100:01:01');
  });

  it('sums decimal amounts exactly, whatever their scale and sign', () => {
    expect(sumDecimals(['0.1', '0.2'])).toBe('0.3');
    expect(sumDecimals(['240', '37.13', '0.02'])).toBe('277.15');
    expect(sumDecimals(['-1.5', '1'])).toBe('-0.5');
    expect(sumDecimals(['0.005', '0.005'])).toBe('0.010');
    expect(sumDecimals(Array.from({ length: 1000 }, () => '0.01'))).toBe('10.00');
    expect(sumDecimals([null, '12'])).toBe('12');
    expect(sumDecimals([null, null])).toBeNull();
    expect(sumDecimals([])).toBeNull();
  });
});

describe('buildReport', () => {
  it('sums time in whole seconds per group and overall, projects by name and days by date', () => {
    const rows = [
      row({ project_name: 'web', time_total: '00:00:01', date_execution: '2026-11-03' }),
      row({ project_id: 58, project_name: 'Audit', time_total: '23:59:59', rate_total: 0.1 }),
      row({ time_total: '01:30:30', rate_total: '0.2' }),
    ];
    const byProject = buildReport(rows, 'project');
    expect(
      byProject.groups.map((group) => [group.total.group, group.total.time_total, group.total.records, group.total.rate_total]),
    ).toEqual([
      ['Audit', '23:59:59', 1, '0.1'],
      ['web', '00:00:01', 1, null],
      ['Web', '01:30:30', 1, '0.2'],
    ]);
    expect(byProject.overall).toEqual({ records: 3, seconds: 91_830, time_total: '25:30:30', rate_total: '0.3' });
    const byDay = buildReport(rows, 'day');
    expect(byDay.groups.map((group) => [group.total.group, group.total.seconds])).toEqual([
      ['2026-11-02', 91_829],
      ['2026-11-03', 1],
    ]);
    expect(byDay.groups[0]!.entries.map((entry) => entry.time_total)).toEqual(['23:59:59', '01:30:30']);
    expect(buildReport(rows, 'none').groups).toEqual([]);
  });

  it('reads loose rows: strings for numbers, a date-time for the date, a span when time_total is missing', () => {
    const report = buildReport(
      [
        row({ project_id: '61', date_execution: '2026-11-02 00:00:00', rate_hour: '95.50', rate_total: '334.25', time_total: '3:30:00' }),
        row({ time_total: undefined, time_start: '2026-11-02 22:30', time_end: '2026-11-03 01:15' }),
        row({ time_total: null, time_start: null, project_name: null, project_id: null, user_name: null, user_email: 'x@example.com' }),
      ],
      'project',
    );
    expect(report.entries[0]).toMatchObject({
      project_id: 61,
      date: '2026-11-02',
      rate_hour: '95.50',
      rate_total: '334.25',
      seconds: 12_600,
    });
    expect(report.entries[1]).toMatchObject({ seconds: 9900, time_total: '02:45:00' });
    expect(report.entries[2]).toMatchObject({ seconds: 0, project: null, user: 'x@example.com' });
    expect(report.unreadable).toBe(1);
    expect(report.groups.map((group) => group.total.group)).toEqual(['(no project)', 'Web']);
  });

  it('prints each group, its subtotal and the total as lines with the same fields in the same order', () => {
    const report = buildReport([row({ rate_total: 10 }), row({ project_name: 'Audit', rate_total: 5 })], 'project');
    const lines = [...reportLines(report, 'project')];
    expect(lines.map((line) => [line.line, line.group, line.project, line.time_total, line.rate_total, line.records])).toEqual([
      ['entry', null, 'Audit', '01:00:00', '5', null],
      ['subtotal', 'Audit', 'Audit', '01:00:00', '5', 1],
      ['entry', null, 'Web', '01:00:00', '10', null],
      ['subtotal', 'Web', 'Web', '01:00:00', '10', 1],
      ['total', null, null, '02:00:00', '15', 2],
    ]);
    expect(new Set(lines.map((line) => Object.keys(line).join()))).toHaveLength(1);
    const empty = [...reportLines(buildReport([], 'none'), 'none')];
    expect(empty).toEqual([expect.objectContaining({ line: 'total', time_total: '00:00:00', seconds: 0, rate_total: null, records: 0 })]);
    expect(Object.keys(empty[0]!)).toEqual(Object.keys(lines[0]!));
  });
});

describe('report dates', () => {
  it('take calendar dates YYYY-MM-DD, in order, both days included', () => {
    expect(reportRange('2026-11-02', '2026-11-02')).toEqual({ from: '2026-11-02', to: '2026-11-02' });
    expect(reportDate(' 2024-02-29 ', '--from')).toBe('2024-02-29');
  });

  it('refuse anything else with exit 2, naming the option', async () => {
    for (const bad of [
      '2026-02-29',
      '2026-13-01',
      '2026-11-31',
      '02.11.2026',
      '2026-11-2',
      '2026-11-02T00:00:00Z',
      'today',
      '0000-01-01',
    ]) {
      const error = await tridentError(() => reportDate(bad, '--to'));
      expect(error.exitCode).toBe(2);
      expect(error.message).toBe(`invalid --to "${bad}": expected a calendar date YYYY-MM-DD`);
    }
    expect((await tridentError(() => reportRange(undefined, '2026-11-02'))).message).toMatch(/^--from is required/);
    const reversed = await tridentError(() => reportRange('2026-11-06', '2026-11-02'));
    expect([reversed.exitCode, reversed.message]).toEqual([2, '--from 2026-11-06 is after --to 2026-11-02']);
  });
});
