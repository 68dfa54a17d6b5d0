import { describe, expect, it } from 'vitest';
import { fitColumns, renderChart, runsOf } from '../../../src/catalog/chart.js';

const days = (n: number) =>
  Array.from({ length: n }, (_, i) => new Date(Date.UTC(2026, 1, 1) + i * 86_400_000).toISOString().replace('.000Z', 'Z'));

describe('chart helpers', () => {
  it('splits a series into its runs of values', () => {
    expect(runsOf([null, 1, 2, null, null, 3, null])).toEqual([
      { start: 1, values: [1, 2] },
      { start: 5, values: [3] },
    ]);
    expect(runsOf([null, null])).toEqual([]);
  });

  it('widens short series and averages long ones, keeping empty columns empty', () => {
    expect(fitColumns([1, null, 3], 7)).toEqual([1, 1, null, null, 3, 3]);
    expect(fitColumns([1, null, 3], 100)).toEqual([1, 1, 1, 1, null, null, null, null, 3, 3, 3, 3]);
    expect(fitColumns([1, 3, null, null, 5, null], 3)).toEqual([2, null, 5]);
  });
});

describe('renderChart', () => {
  it("draws the catalog service's worked example (90, a gap, 80) with its gap as blank columns", async () => {
    const chart = await renderChart({ dates: days(3), values: [90, null, 80], label: 'price (RUB) every 1d', width: 80, height: 4 });
    expect(chart).toMatchInlineSnapshot(`
      "price (RUB) every 1d
      90.00 ┼────
      85.00 ┤
      80.00 ┤        ────
            └┬───────────
             2026-02-01 → 2026-02-03"
    `);
  });

  it('keeps a leading gap and a gap inside the series empty, on one shared scale', async () => {
    const values = [null, null, 10, 12, 14, null, null, 20, 18, 16, 16, null];
    const chart = await renderChart({ dates: days(values.length), values, label: 'available_count (pcs) every 1d', width: 40, height: 5 });
    expect(chart).toMatchInlineSnapshot(`
      "available_count (pcs) every 1d
      20.00 ┤              ─╮
      18.00 ┤               ╰─╮
      16.00 ┤                 ╰────
      14.00 ┤       ╭──
      12.00 ┤     ╭─╯
      10.00 ┤    ─╯
            └┬─────────────────────┬─
             2026-02-01            2026-02-12"
    `);
    const lines = chart.split('\n').slice(1, -2);
    const prefix = '20.00 ┤'.length;
    // Two columns per point: the columns of points 0, 1, 5, 6 and 11 are blank on every line.
    for (const point of [0, 1, 5, 6, 11]) {
      for (const column of [2 * point, 2 * point + 1]) {
        expect(lines.map((line) => line[prefix + column] ?? ' ').join('')).toBe(' '.repeat(lines.length));
      }
    }
  });

  it('averages a series longer than the terminal is wide, and says so', async () => {
    const values = Array.from({ length: 200 }, (_, i) => (i >= 100 && i < 120 ? null : i % 50));
    const chart = await renderChart({ dates: days(200), values, label: 'price (RUB) every 1d', width: 60, height: 3 });
    const lines = chart.split('\n');
    expect(lines[0]).toBe('price (RUB) every 1d, each column the mean of up to 4 points');
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(60);
    const [marks, labels] = lines.slice(-2);
    expect(labels).toBe('       2026-02-01    2026-03-26     2026-05-23    2026-07-16');
    // Each label starts under its mark.
    const marked = [...marks!].flatMap((char, column) => (char === '┬' ? [column] : []));
    expect(marked).toEqual([...labels!.matchAll(/2026/g)].map((match) => match.index));
  });

  it('draws a flat series and says when there is nothing to draw', async () => {
    expect(await renderChart({ dates: days(2), values: [5, 5], label: 'price (RUB)', width: 80 })).toMatchInlineSnapshot(`
      "price (RUB)
      5.00 ┼────────
           └┬───────
            2026-02-01 → 2026-02-02"
    `);
    expect(await renderChart({ dates: days(3), values: [null, null, null], label: 'price (RUB)', width: 80 })).toBe(
      'price (RUB): no values between 2026-02-01T00:00:00Z and 2026-02-03T00:00:00Z',
    );
  });

  const hours = (n: number) =>
    Array.from({ length: n }, (_, i) => new Date(Date.UTC(2026, 1, 1) + i * 3_600_000).toISOString().replace('.000Z', 'Z'));

  it.each([40, 80, 120])('fits %i columns: no line wider, dated marks in order along the time axis', async (width) => {
    const values = Array.from({ length: 720 }, (_, i) => (i % 100 < 10 ? null : 1000 + Math.sin(i / 30) * 250));
    const chart = await renderChart({ dates: hours(720), values, label: 'price (RUB) every 1h, perekrestok 100005 '.repeat(3), width });
    const lines = chart.split('\n');
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(width);
    const [marks, labels] = lines.slice(-2);
    const dates = labels!.trim().split(/ {2,}/);
    expect(dates.length).toBeGreaterThanOrEqual(width === 40 ? 2 : Math.floor(width / 16));
    for (const date of dates) expect(date).toMatch(/^0[23]-\d{2} \d{2}:\d{2}Z$/);
    expect([...dates].sort()).toEqual(dates);
    expect(dates[0]).toBe('02-01 00:00Z');
    const marked = [...marks!].flatMap((char, column) => (char === '┬' ? [column] : []));
    expect(marked).toEqual(dates.map((date) => labels!.indexOf(date)));
  });

  it('never gives two rows the same label: two close prices, and stock in whole numbers', async () => {
    const close = await renderChart({ dates: days(2), values: [90, 90.01], label: 'price (RUB)', width: 80 });
    expect(close.split('\n').slice(1, 3)).toEqual(['90.01 ┤   ╭────', '90.00 ┼───╯']);
    const stock = await renderChart({
      dates: days(4),
      values: [3, 5, 4, 17],
      label: 'available_count (pcs)',
      width: 80,
      wholeNumbers: true,
    });
    const labels = stock
      .split('\n')
      .slice(1, -2)
      .map((line) => line.slice(0, 3).trim());
    expect(labels).toEqual(['18', '16', '14', '12', '10', '8', '6', '4', '2']);
    for (const values of [
      [1, 1.03],
      [0.5, 0.52, 0.51],
      [100, 100.07],
      [7, 9],
    ]) {
      const lines = (await renderChart({ dates: days(values.length), values, label: 'x', width: 80 })).split('\n').slice(1, -2);
      const rowLabels = lines.map((line) => line.split(' ')[0]);
      expect(new Set(rowLabels).size, rowLabels.join(' ')).toBe(rowLabels.length);
    }
  });
});
