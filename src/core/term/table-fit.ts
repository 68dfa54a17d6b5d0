// Table column widths for a terminal. A table wider than the terminal wraps every row into a mess, and a
// number or an id cut with "…" is worse than none: so nothing is ever cut. Columns that may go are hidden
// first (least important first, as each list declares), then columns of text are narrowed and wrapped over
// lines, never splitting an id, a number or a date (see wrap.ts). When even the columns that must stay do not
// fit, there is no table: the caller prints one record per block instead (blocks.ts).
import stringWidth from 'string-width';
import { widestPiece, wrapCell } from './wrap.js';

/** Narrowest a column of text is made, padding included (wider when a piece of it that may not split is). */
export const MIN_COLUMN_WIDTH = 12;
/** Narrowest a column that may break anywhere (Column.breakable) is made, padding included. */
export const MIN_BREAKABLE_WIDTH = 10;

export interface FitColumn {
  /** Display width of the widest line, plus a space of padding on each side. */
  natural: number;
  /** The narrowest it may be made, padding included: its natural width unless its text may wrap. */
  narrowest: number;
  /** Hidden to fit, lowest first; undefined: it must stay. */
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

/**
 * A column to fit, from its texts (header included) and its natural width: text may narrow down to
 * MIN_COLUMN_WIDTH, or to its widest piece that may not split; a column of ids, numbers or dates cannot narrow.
 * A breakable one narrows to MIN_BREAKABLE_WIDTH whatever its words.
 */
export function fitColumn(texts: readonly string[], natural: number, hide?: number, breakable = false): FitColumn {
  return {
    natural,
    narrowest: Math.min(natural, breakable ? MIN_BREAKABLE_WIDTH : Math.max(MIN_COLUMN_WIDTH, widestPiece(texts) + 2)),
    ...(hide === undefined ? {} : { hide }),
  };
}

/** The width of a table whose columns are `widths` wide: n + 1 vertical borders. */
export const tableWidth = (widths: readonly number[]) => widths.reduce((sum, width) => sum + width, 0) + widths.length + 1;

/**
 * Which columns to show and how wide, in `available` columns: hidden ones (by their `hide` rank) until the
 * narrowest possible table fits, then the widest column that can narrow narrowed a column at a time.
 * Undefined when even the columns that must stay do not fit at their narrowest.
 */
export function fitTable(columns: FitColumn[], available: number): Fitted | undefined {
  const shown = columns.map((_, index) => index);
  const hidden: number[] = [];
  const fits = () => tableWidth(shown.map((i) => columns[i]!.narrowest)) <= available;
  const byRank = shown.filter((index) => columns[index]!.hide !== undefined).sort((a, b) => columns[a]!.hide! - columns[b]!.hide!);
  for (const index of byRank) {
    if (fits()) break;
    shown.splice(shown.indexOf(index), 1);
    hidden.push(index);
  }
  if (!fits()) return undefined;
  const widths = shown.map((i) => columns[i]!.natural);
  let total = tableWidth(widths);
  while (total > available) {
    let widest = -1;
    widths.forEach((width, at) => {
      if (width > columns[shown[at]!]!.narrowest && (widest < 0 || width > widths[widest]!)) widest = at;
    });
    widths[widest] = widths[widest]! - 1;
    total -= 1;
  }
  return { shown, widths, hidden: hidden.sort((a, b) => a - b) };
}

/** A cell's text wrapped to its column's width (padding included), when the column was narrowed. */
export const wrapped = (text: string, width: number, natural: number, breakable = false) =>
  width < natural ? wrapCell(text, width - 2, breakable) : text;
