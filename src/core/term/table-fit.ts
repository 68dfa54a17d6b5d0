// Table column widths for a terminal. A table wider than the terminal wraps every row into a mess, and a
// number or an id cut with "…" is worse than none: so nothing is ever cut. Columns that may go are hidden
// first (least important first, as each table declares), then columns of text are narrowed and wrapped
// over lines; a column of numbers, ids or dates keeps its whole width.
import stringWidth from 'string-width';

/** Narrowest a column of text is made, padding included. */
export const MIN_COLUMN_WIDTH = 12;

/** A word (no spaces) up to this long is an id, a number, a date or a name: never split over lines. */
const WHOLE_WORD = 40;

export interface FitColumn {
  /** Display width of the widest line, plus a space of padding on each side. */
  natural: number;
  /** Its text may wrap over lines; a column that may not keeps its natural width. */
  wraps: boolean;
  /** Hidden to fit, lowest first; undefined: always shown. */
  hide?: number;
}

export interface Fitted {
  /** Indexes of the columns shown, in their order. */
  shown: number[];
  /** Widths (padding included) of the shown columns. */
  widths: number[];
  /** Indexes of the columns hidden to fit. */
  hidden: number[];
}

/** Display width of the widest line of each column, plus a space of padding on each side. */
export function naturalWidths(rows: string[][]): number[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, column) => {
      const widest = Math.max(0, ...cell.split('\n').map((line) => stringWidth(line)));
      widths[column] = Math.max(widths[column] ?? 0, widest + 2);
    });
  }
  return widths;
}

/** True when a column's cells are text that may wrap: some cell holds a space, or a word too long to be an id. */
export function isWrappable(cells: string[]): boolean {
  return cells.some((cell) => /\s/.test(cell) || stringWidth(cell) > WHOLE_WORD);
}

const tableWidth = (widths: number[]) => widths.reduce((sum, width) => sum + width, 0) + widths.length + 1;

/**
 * Which columns to show and how wide, for a table with n + 1 vertical borders in `available` columns:
 * hidden ones (by their `hide` rank) until the narrowest possible table fits, then the widest column of
 * text narrowed a column at a time, never below MIN_COLUMN_WIDTH. A table that cannot fit even so is wider
 * than the terminal rather than cut.
 */
export function fitTable(columns: FitColumn[], available: number): Fitted {
  const narrowest = (column: FitColumn) => (column.wraps ? Math.min(column.natural, MIN_COLUMN_WIDTH) : column.natural);
  const shown = columns.map((_, index) => index);
  const hidden: number[] = [];
  const byRank = shown.filter((index) => columns[index]!.hide !== undefined).sort((a, b) => columns[a]!.hide! - columns[b]!.hide!);
  for (const index of byRank) {
    if (tableWidth(shown.map((i) => narrowest(columns[i]!))) <= available) break;
    shown.splice(shown.indexOf(index), 1);
    hidden.push(index);
  }
  const widths = shown.map((i) => columns[i]!.natural);
  let total = tableWidth(widths);
  while (total > available) {
    let widest = -1;
    widths.forEach((width, at) => {
      const column = columns[shown[at]!]!;
      if (column.wraps && width > narrowest(column) && (widest < 0 || width > widths[widest]!)) widest = at;
    });
    if (widest < 0) break;
    widths[widest] = widths[widest]! - 1;
    total -= 1;
  }
  return { shown, widths, hidden: hidden.sort((a, b) => a - b) };
}

/**
 * A cell's text wrapped to `width` columns: at spaces where it can, and through words longer than a line
 * (a path, an id, a URL), which are split rather than cut, since they are what gets copied.
 */
export function wrapCell(text: string, width: number): string {
  if (width < 1) return text;
  return text
    .split('\n')
    .flatMap((paragraph) => wrapLine(paragraph, width))
    .join('\n');
}

function wrapLine(line: string, width: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of line.split(' ')) {
    const joined = current === '' ? word : `${current} ${word}`;
    if (stringWidth(joined) <= width) {
      current = joined;
      continue;
    }
    if (current !== '') lines.push(current);
    let rest = '';
    for (const char of word) {
      if (stringWidth(rest + char) > width) {
        lines.push(rest);
        rest = '';
      }
      rest += char;
    }
    current = rest;
  }
  lines.push(current);
  return lines;
}
