// Tables for people: a list, or one record as field names and values, fitted to the terminal (see
// table-fit.ts). table-fit and cli-table3 are loaded only when a table is drawn.
import { printable } from './cells.js';
import { keyOf, type Column } from './columns.js';

/** Where a table is drawn: the terminal's width (none when not a terminal), colour, and where notes go. */
export interface TableTarget {
  width: number | undefined;
  color: boolean;
  note: (message: string) => void;
}

/**
 * A list as a table fitted to the terminal: the columns that may go are hidden first (said on stderr, with
 * the --columns that shows them), then text wraps; nothing is cut.
 */
export async function listTable<T>(
  columns: Array<Column<T>>,
  rows: T[],
  mayHide: boolean,
  target: TableTarget,
  withHeader = true,
): Promise<string> {
  const { fitTable, isWrappable, naturalWidths, wrapCell } = await import('../table-fit.js');
  const head = columns.map((column) => printable(column.header));
  const cells = rows.map((row) => columns.map((column) => printable(column.value(row))));
  const available = target.width;
  if (!available) return draw(withHeader ? head : [], cells, [], target.color);
  const natural = naturalWidths([head, ...cells]);
  // A table that declares no order of importance: the later a column, the sooner it goes (never the first).
  const ranked = columns.some((column) => column.hide !== undefined);
  const hideRank = (column: Column<T>, index: number) =>
    !mayHide ? undefined : ranked ? column.hide : index > 0 ? columns.length - index : undefined;
  const fitted = fitTable(
    columns.map((column, index) => ({
      natural: natural[index]!,
      wraps: isWrappable(cells.map((row) => row[index]!)),
      hide: hideRank(column, index),
    })),
    available,
  );
  if (fitted.hidden.length > 0) {
    const hidden = fitted.hidden.map((index) => keyOf(columns[index]!));
    const choose = `--columns ${shellQuoted(columns.map(keyOf).join(','))}`;
    target.note(`${hidden.join(', ')} hidden to fit ${available} columns; to choose the columns: ${choose}`);
  }
  const wrap = (text: string, at: number) =>
    fitted.widths[at]! < natural[fitted.shown[at]!]! ? wrapCell(text, fitted.widths[at]! - 2) : text;
  return draw(
    withHeader ? fitted.shown.map((index, at) => wrap(head[index]!, at)) : [],
    cells.map((row) => fitted.shown.map((index, at) => wrap(row[index]!, at))),
    fitted.widths,
    target.color,
  );
}

/** A record as field names and values; values wrap to the terminal (paths and ids split, not cut). */
export async function recordTable(pairs: string[][], target: TableTarget): Promise<string> {
  const { fitTable, naturalWidths, wrapCell } = await import('../table-fit.js');
  const available = target.width;
  if (!available || pairs.length === 0) return draw(undefined, pairs, [], target.color);
  const natural = naturalWidths(pairs);
  const { widths } = fitTable(
    [
      { natural: natural[0]!, wraps: false },
      { natural: natural[1]!, wraps: true },
    ],
    available,
  );
  const wrapped = pairs.map(([key, value]) => [key!, widths[1]! < natural[1]! ? wrapCell(value!, widths[1]! - 2) : value!]);
  return draw(undefined, wrapped, widths, target.color);
}

/**
 * Draws the table. Rows go without lines between them (a list of 100 stays 100 lines) unless a row spans
 * several lines (wrapped text): then every row is ruled off, so a continuation line is never read as a row.
 */
async function draw(head: string[] | undefined, rows: string[][], colWidths: number[], color: boolean): Promise<string> {
  const { default: Table } = await import('cli-table3');
  const bold = (text: string) => boldText(text, color);
  const ruled = head !== undefined && rows.some((row) => row.some((cell) => cell.includes('\n')));
  const table = new Table({
    head: (head ?? []).map(bold),
    style: { head: [], border: [] },
    colWidths,
    wordWrap: false,
    ...(ruled ? {} : { chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' } }),
  });
  for (const cells of rows) table.push(head ? cells : [bold(cells[0]!), ...cells.slice(1)]);
  const lines = table.toString().split('\n');
  // The header keeps a rule under it.
  if (head && head.length > 0 && !ruled && lines.length > 3)
    lines.splice(2, 0, lines[0]!.replace('┌', '├').replaceAll('┬', '┼').replace('┐', '┤'));
  return `${lines.join('\n')}\n`;
}

// Bold is applied here rather than through cli-table3's style, whose colour library decides on its own
// whether the terminal supports colour: --no-color, NO_COLOR, FORCE_COLOR and TERM=dumb must decide.
function boldText(text: string, color: boolean): string {
  return color
    ? text
        .split('\n')
        .map((line) => `\u001b[1m${line}\u001b[22m`)
        .join('\n')
    : text;
}

/** A word as a shell reads it back: quoted unless it is plain. */
function shellQuoted(word: string): string {
  return /^[\w,.:@%+=/-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
