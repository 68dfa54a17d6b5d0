// The chart puts each value on the row whose label is nearest to it, copes with any length, and shows the
// service's text (a price unit, a date) escaped: nothing in it can drive the terminal.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderChart } from '../../../src/catalog/chart.js';

const days = (n: number) =>
  Array.from({ length: n }, (_, i) => new Date(Date.UTC(2026, 1, 1) + i * 86_400_000).toISOString().replace('.000Z', 'Z'));

/** For a series of flat steps (each value over several columns), the label of the row each step is drawn on. */
async function rowsOfSteps(steps: number[], height: number): Promise<Array<{ value: number; label: number; labels: number[] }>> {
  const values = steps.flatMap((value) => [value, value, value]);
  const chart = await renderChart({ dates: days(values.length), values, label: 'price (RUB)', width: 200, height });
  const lines = chart.split('\n').slice(1, -2);
  const axis = lines[0]!.search(/[┤┼]/) + 1;
  const labels = lines.map((line) => Number(line.slice(0, axis - 2)));
  // Each point is 4 columns wide here (200 columns, few points): the middle of a step is plain "─".
  return steps.map((value, step) => {
    const column = axis + step * 12 + 5;
    const row = lines.findIndex((line) => line[column] === '─');
    return { value, label: labels[row]!, labels };
  });
}

describe('chart rows', () => {
  it('labels rows in round steps around the values and draws 222.00 on the row of 220, the nearest', async () => {
    const [, drawn] = await rowsOfSteps([200.77, 222, 257.17], 10);
    expect(drawn!.labels).toEqual([260, 250, 240, 230, 220, 210, 200]);
    expect(drawn!.label).toBe(220);
  });

  it('puts every value on the row with the nearest label', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.double({ min: -1000, max: 1000, noNaN: true }), { minLength: 2, maxLength: 12 }),
        fc.integer({ min: 2, max: 20 }),
        async (steps, height) => {
          const rounded = steps.map((value) => Math.round(value * 100) / 100);
          for (const { value, label, labels } of await rowsOfSteps(rounded, height)) {
            const nearest = Math.min(...labels.map((other) => Math.abs(other - value)));
            // Labels are printed to 2 decimals: allow for that rounding.
            expect(Math.abs(label - value)).toBeLessThanOrEqual(nearest + 0.011);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('chart of any length', () => {
  // A drawing that grew with the square of the points would outlast the test's timeout.
  it('draws 200 000 points within the width, without a stack overflow', async () => {
    const values = Array.from({ length: 200_000 }, (_, i) => (i % 1000 === 0 ? null : 100 + Math.sin(i / 5000) * 20));
    const chart = await renderChart({ dates: days(values.length), values, label: 'price (RUB) every 1h', width: 80, height: 8 });
    const lines = chart.split('\n');
    expect(lines[0]).toMatch(/^price \(RUB\) every 1h, each column the mean of up to \d+ points$/);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
  });
});

describe('hostile service text in a chart', () => {
  it('escapes control, bidi and zero-width characters of the label and the dates', async () => {
    const osc52 = '\u001b]52;c;ZWNobyBwd25lZA==\u0007';
    const label = `price (${osc52}\u001b]0;title\u0007\u001b[2J\u202eBUR\u200b) every 1d`;
    const dates = ['2026-02-01\u001b[2J', '2026-02-02T00:00:00Z', '\u009b31m2026-02-03'];
    const chart = await renderChart({ dates, values: [1, 2, 3], label, width: 80 });
    expect(chart).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b\u202e]/);
    expect(chart).toContain('\\x1b]52;c;ZWNobyBwd25lZA==\\x07');
    expect(chart).toContain('\\u202eBUR\\u200b');
    expect(chart).toContain('2026-02-01\\x1b[2J');
    expect(chart).toContain('\\x9b31m2026-02-03');
    const empty = await renderChart({ dates, values: [null, null, null], label, width: 80 });
    expect(empty).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b\u202e]/);
  });
});
