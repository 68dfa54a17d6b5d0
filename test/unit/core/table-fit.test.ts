import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MIN_COLUMN_WIDTH, fitColumn, fitTable, naturalWidths, tableWidth } from '../../../src/core/term/table-fit.js';

const UUID = '0146d6eb-a68f-4103-802e-a8ca5faad817';
/** Columns from [natural, narrowest, hide?]. */
const cols = (...specs: Array<[number, number, number?]>) =>
  specs.map(([natural, narrowest, hide]) => ({ natural, narrowest, ...(hide === undefined ? {} : { hide }) }));

describe('tables fitted to a terminal', () => {
  it('measures display width: wide characters count twice, the widest line of a cell counts', () => {
    expect(
      naturalWidths([
        ['id', '漢字'],
        ['a\nlonger line', 'x'],
      ]),
    ).toEqual([13, 6]);
  });

  it('lets text narrow to the minimum or to its widest id, and a column of ids, numbers or dates not at all', () => {
    expect(fitColumn(['title', 'Крупа гречневая ядрица 800 г, отборная'], 40)).toMatchObject({ natural: 40, narrowest: MIN_COLUMN_WIDTH });
    expect(fitColumn(['details', `new_key=${UUID} name=ci`], 50).narrowest).toBe(UUID.length + 2);
    expect(fitColumn(['id', UUID], 38).narrowest).toBe(38);
    expect(fitColumn(['price from', '222.00'], 12).narrowest).toBe(12);
    expect(fitColumn(['in use', 'yes'], 8, 3)).toEqual({ natural: 8, narrowest: 8, hide: 3 });
  });

  it('leaves a table that fits as it is', () => {
    expect(fitTable(cols([10, 10], [20, 12], [8, 8]), 80)).toEqual({ shown: [0, 1, 2], widths: [10, 20, 8], hidden: [] });
  });

  it('narrows the widest column that can narrow, a column at a time, never below its narrowest', () => {
    expect(fitTable(cols([38, 38], [44, 12], [14, 14], [30, 12]), 100)?.widths).toEqual([38, 21, 14, 22]);
    expect(fitTable(cols([38, 38], [44, 12], [14, 14]), 69)?.widths).toEqual([38, 13, 14]);
  });

  it('hides the least important columns first, and only as many as it must', () => {
    const columns = cols([38, 38], [60, 12], [10, 10, 3], [14, 14, 1], [22, 22, 2]);
    expect(fitTable(columns, 200)).toMatchObject({ hidden: [] });
    expect(fitTable(columns, 80)).toMatchObject({ shown: [0, 1, 2], hidden: [3, 4] });
    expect(tableWidth(fitTable(columns, 80)!.widths)).toBeLessThanOrEqual(80);
    expect(fitTable(columns, 53)).toMatchObject({ shown: [0, 1], widths: [38, 12], hidden: [2, 3, 4] });
  });

  it('gives no table when the columns that must stay do not fit even at their narrowest', () => {
    expect(fitTable(cols([38, 38], [60, 12], [10, 10, 1]), 52)).toBeUndefined();
    expect(fitTable(cols([38, 38]), 39)).toBeUndefined();
    expect(fitTable(cols([38, 38]), 40)).toEqual({ shown: [0], widths: [38], hidden: [] });
  });

  it('fits within the width or gives no table; hides only what may go; never narrows below the narrowest', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc
            .record({
              natural: fc.integer({ min: 3, max: 200 }),
              cut: fc.integer({ min: 0, max: 200 }),
              hide: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
            })
            .map(({ natural, cut, hide }) => ({ natural, narrowest: Math.max(3, natural - cut), ...(hide === undefined ? {} : { hide }) })),
          { minLength: 1, maxLength: 12 },
        ),
        fc.integer({ min: 10, max: 300 }),
        (columns, available) => {
          const fitted = fitTable(columns, available);
          const kept = columns.filter((column) => column.hide === undefined);
          if (!fitted) {
            expect(tableWidth(kept.map((column) => column.narrowest))).toBeGreaterThan(available);
            return;
          }
          const { shown, widths, hidden } = fitted;
          expect([...shown, ...hidden].sort((a, b) => a - b)).toEqual(columns.map((_, i) => i));
          for (const index of hidden) expect(columns[index]!.hide).toBeDefined();
          shown.forEach((index, at) => {
            expect(widths[at]).toBeLessThanOrEqual(columns[index]!.natural);
            expect(widths[at]).toBeGreaterThanOrEqual(columns[index]!.narrowest);
          });
          expect(tableWidth(widths)).toBeLessThanOrEqual(available);
          // Only as many hidden as needed: with the last one hidden (ties go in their order) shown again, the narrowest table would not fit.
          if (hidden.length > 0) {
            const last = [...hidden].sort((a, b) => columns[b]!.hide! - columns[a]!.hide! || b - a)[0]!;
            expect(tableWidth([...shown, last].map((i) => columns[i]!.narrowest))).toBeGreaterThan(available);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});
