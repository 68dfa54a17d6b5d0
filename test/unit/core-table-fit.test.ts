import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import stringWidth from 'string-width';
import { MIN_COLUMN_WIDTH, fitWidths, naturalWidths, wrapCell } from '../../src/core/table-fit.js';

const tableWidth = (widths: number[]) => widths.reduce((sum, width) => sum + width, 0) + widths.length + 1;

describe('table widths for a terminal', () => {
  it('measures display width: wide characters count twice, the widest line of a cell counts', () => {
    expect(naturalWidths([['id', '漢字'], ['a\nlonger line', 'x']])).toEqual([13, 6]);
  });

  it('leaves a table that fits as it is', () => {
    expect(fitWidths([10, 20, 8], 80)).toEqual([10, 20, 8]);
  });

  it('narrows the widest columns first and keeps the first column', () => {
    expect(fitWidths([38, 44, 14, 30], 100)).toEqual([38, 21, 14, 22]);
  });

  it('always fits when it can, never widens, never goes below the minimum, never touches the first column', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 3, max: 200 }), { minLength: 1, maxLength: 12 }), fc.integer({ min: 20, max: 300 }), (natural, available) => {
        const widths = fitWidths(natural, available);
        expect(widths[0]).toBe(natural[0]);
        widths.forEach((width, column) => {
          expect(width).toBeLessThanOrEqual(natural[column]!);
          if (column > 0) expect(width).toBeGreaterThanOrEqual(Math.min(natural[column]!, MIN_COLUMN_WIDTH));
        });
        const floor = tableWidth([natural[0]!, ...natural.slice(1).map((width) => Math.min(width, MIN_COLUMN_WIDTH))]);
        expect(tableWidth(widths)).toBeLessThanOrEqual(Math.max(available, floor));
      }),
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
