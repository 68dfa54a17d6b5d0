// Tables for people: a list, or one record as field names and values, fitted to the terminal (see
// table-fit.ts), or as blocks when even what must stay does not fit (blocks.ts). table-fit, blocks and
// box-table are loaded only when a table is drawn.
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
 * the --columns that shows them), then text wraps; nothing is cut. When the columns that must stay do not
 * fit, one record per block.
 */
export async function listTable<T>(
  columns: Array<Column<T>>,
  rows: T[],
  mayHide: boolean,
  target: TableTarget,
  withHeader = true,
): Promise<string> {
  const { fitColumn, fitTable, naturalWidths, wrapped } = await import('../table-fit.js');
  const head = columns.map((column) => printable(column.header));
  const cells = rows.map((row) => columns.map((column) => printable(column.value(row))));
  const available = target.width;
  if (!available) return draw(withHeader ? head : [], cells, [], target.color);
  const natural = naturalWidths([head, ...cells]);
  const fitted = fitTable(
    columns.map((column, index) =>
      fitColumn(
        [head[index]!, ...cells.map((row) => row[index]!)],
        natural[index]!,
        mayHide ? hideRank(columns, index) : undefined,
        columns[index]!.breakable,
      ),
    ),
    available,
  );
  // A blank line after the last record too: what follows (a record, a note) is not read as one of its fields.
  if (!fitted) return `${await asBlocks(head, cells, available, target.color)}\n`;
  if (fitted.hidden.length > 0) {
    const hidden = fitted.hidden.map((index) => keyOf(columns[index]!));
    const choose = `--columns ${shellQuoted(columns.map(keyOf).join(','))}`;
    // Wrapped to the terminal, its continuation lines indented: one note, however narrow the screen.
    const { wrapCell } = await import('../wrap.js');
    const note = `${hidden.join(', ')} hidden to fit ${available} columns; to choose the columns: ${choose}`;
    target.note(wrapCell(note, available - 2).replaceAll('\n', '\n  '));
  }
  const wrap = (text: string, at: number) =>
    wrapped(text, fitted.widths[at]!, natural[fitted.shown[at]!]!, columns[fitted.shown[at]!]!.breakable);
  return draw(
    withHeader ? fitted.shown.map((index, at) => wrap(head[index]!, at)) : [],
    cells.map((row) => fitted.shown.map((index, at) => wrap(row[index]!, at))),
    fitted.widths,
    target.color,
  );
}

/**
 * When a column goes to fit a narrow terminal: as its list declares (a column without a rank stays), else (a
 * list that declares nothing) the later the sooner, the first never.
 */
function hideRank<T>(columns: Array<Column<T>>, index: number): number | undefined {
  const declared = columns.some((column) => column.keep || column.hide !== undefined);
  if (declared) return columns[index]!.hide;
  return index > 0 ? columns.length - index : undefined;
}

/** A record as field names and values; values wrap to the terminal, or sit under their names when it is too narrow. */
export async function recordTable(pairs: string[][], target: TableTarget): Promise<string> {
  const { fitColumn, fitTable, naturalWidths, wrapped } = await import('../table-fit.js');
  const available = target.width;
  if (!available || pairs.length === 0) return draw(undefined, pairs, [], target.color);
  const natural = naturalWidths(pairs);
  const fitted = fitTable(
    [
      { natural: natural[0]!, narrowest: natural[0]! },
      fitColumn(
        pairs.map(([, value]) => value!),
        natural[1]!,
      ),
    ],
    available,
  );
  const labels = pairs.map(([key]) => key!);
  const values = pairs.map(([, value]) => value!);
  if (!fitted) return asBlocks(labels, [values], available, target.color);
  const rows = pairs.map(([key, value]) => [key!, wrapped(value!, fitted.widths[1]!, natural[1]!)]);
  return draw(undefined, rows, fitted.widths, target.color);
}

async function asBlocks(labels: string[], records: string[][], width: number, color: boolean): Promise<string> {
  const { blocks } = await import('./blocks.js');
  return blocks(labels, records, width, (text) => boldText(text, color));
}

/**
 * Draws the table. Rows go without lines between them (a list of 100 stays 100 lines) unless a row spans
 * several lines (wrapped text): then every row is ruled off, so a continuation line is never read as a row.
 */
async function draw(head: string[] | undefined, rows: string[][], colWidths: number[], color: boolean): Promise<string> {
  const { boxTable } = await import('./box-table.js');
  const bold = (text: string) => boldText(text, color);
  const ruled = head !== undefined && rows.some((row) => row.some((cell) => cell.includes('\n')));
  const cells = head ? rows : rows.map((row) => [bold(row[0]!), ...row.slice(1)]);
  return `${boxTable((head ?? []).map(bold), cells, colWidths, ruled)}\n`;
}

// Bold follows --no-color, NO_COLOR, FORCE_COLOR and TERM=dumb, as the caller decided them.
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
