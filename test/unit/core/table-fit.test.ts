import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import stringWidth from 'string-width';
import { MIN_COLUMN_WIDTH, fitTable, isWrappable, naturalWidths, wrapCell } from '../../../src/core/term/table-fit.js';

const tableWidth = (widths: number[]) => widths.reduce((sum, width) => sum + width, 0) + widths.length + 1;
const cols = (...specs: Array<[number, boolean]>) => specs.map(([natural, wraps]) => ({ natural, wraps }));

describe('tables fitted to a terminal', () => {
  it('measures display width: wide characters count twice, the widest line of a cell counts', () => {
    expect(
      naturalWidths([
        ['id', '漢字'],
        ['a\nlonger line', 'x'],
      ]),
    ).toEqual([13, 6]);
  });

  it('leaves a table that fits as it is', () => {
    expect(fitTable(cols([10, false], [20, true], [8, false]), 80)).toEqual({ shown: [0, 1, 2], widths: [10, 20, 8], hidden: [] });
  });

  it('narrows only columns of text, the widest first, and never below the minimum', () => {
    expect(fitTable(cols([38, false], [44, true], [14, false], [30, true]), 100).widths).toEqual([38, 21, 14, 22]);
    expect(fitTable(cols([38, false], [44, true], [14, false]), 40).widths).toEqual([38, MIN_COLUMN_WIDTH, 14]);
  });

  it('hides the least important columns first, and only as many as it must', () => {
    const columns = [
      { natural: 38, wraps: false },
      { natural: 60, wraps: true },
      { natural: 10, wraps: false, hide: 3 },
      { natural: 14, wraps: false, hide: 1 },
      { natural: 22, wraps: false, hide: 2 },
    ];
    expect(fitTable(columns, 200)).toMatchObject({ hidden: [] });
    expect(fitTable(columns, 80)).toMatchObject({ shown: [0, 1, 2], hidden: [3, 4] });
    expect(tableWidth(fitTable(columns, 80).widths)).toBeLessThanOrEqual(80);
    // Nothing left to hide: wider than the terminal rather than a number cut.
    expect(fitTable(columns, 40)).toMatchObject({ shown: [0, 1], widths: [38, MIN_COLUMN_WIDTH], hidden: [2, 3, 4] });
  });

  it('tells text from ids: a space or a word longer than an id makes a column wrap', () => {
    expect(isWrappable(['0146d6eb-a68f-4103-802e-a8ca5faad817', '222.00'])).toBe(false);
    expect(isWrappable(['Крупа гречневая'])).toBe(true);
    expect(isWrappable(['/home/ci/.config/trident/keys/0146d6eb-a68f-4103-802e-a8ca5faad817.pem'])).toBe(true);
  });

  it('fits when it can, never narrows a column that does not wrap, never widens, never below the minimum', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            natural: fc.integer({ min: 3, max: 200 }),
            wraps: fc.boolean(),
            hide: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
          }),
          { minLength: 1, maxLength: 12 },
        ),
        fc.integer({ min: 20, max: 300 }),
        (columns, available) => {
          const { shown, widths, hidden } = fitTable(columns, available);
          expect([...shown, ...hidden].sort((a, b) => a - b)).toEqual(columns.map((_, i) => i));
          for (const index of hidden) expect(columns[index]!.hide).toBeDefined();
          shown.forEach((index, at) => {
            const column = columns[index]!;
            if (!column.wraps) expect(widths[at]).toBe(column.natural);
            expect(widths[at]).toBeLessThanOrEqual(column.natural);
            expect(widths[at]).toBeGreaterThanOrEqual(Math.min(column.natural, MIN_COLUMN_WIDTH));
          });
          const floor = tableWidth(
            shown.map((i) => (columns[i]!.wraps ? Math.min(columns[i]!.natural, MIN_COLUMN_WIDTH) : columns[i]!.natural)),
          );
          expect(tableWidth(widths)).toBeLessThanOrEqual(Math.max(available, floor));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('wraps a cell at spaces, and splits a word longer than a line instead of cutting it', () => {
    expect(wrapCell('Крупа гречневая ядрица 800 г', 22)).toBe('Крупа гречневая ядрица\n800 г');
    expect(wrapCell('/home/ci/.config/trident/keys/0146d6eb.pem', 16)).toBe('/home/ci/.config\n/trident/keys/01\n46d6eb.pem');
  });

  it('wrapping loses no character and keeps every line within the width', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), fc.integer({ min: 2, max: 40 }), (text, width) => {
        const clean = text.replace(/\n/g, ' ');
        const wrapped = wrapCell(clean, width);
        for (const line of wrapped.split('\n')) if ([...line].length > 1) expect(stringWidth(line)).toBeLessThanOrEqual(width);
        expect(wrapped.replace(/[\n ]/g, '')).toBe(clean.replace(/ /g, ''));
      }),
      { numRuns: 1000 },
    );
  });
});
