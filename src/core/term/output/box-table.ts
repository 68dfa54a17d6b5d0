// A table drawn in box-drawing characters: a header (when given) ruled off from the rows, a space either side of
// each cell, cells of several lines top-aligned. It takes time in proportion to its cells, so that a list of
// tens of thousands of rows prints as fast as it arrived.
import stringWidth from 'string-width';

/** A cell's lines and the width each takes on a terminal. */
interface Cell {
  lines: string[];
  widths: number[];
}

/** A number as a table shows one: digits with separators, a sign, a unit of time or a percentage. */
const NUMBER = /^[-+]?\d[\d.,:]*%?$/;

/** A column of a list whose every filled cell is a number is right-aligned, as figures are read; its header stays left. */
function numericColumns(head: readonly string[], rows: ReadonlyArray<readonly string[]>, columns: number): boolean[] {
  return Array.from({ length: columns }, (_, at) => {
    if (head.length === 0) return false;
    const filled = rows.map((row) => row[at] ?? '').filter((text) => text !== '');
    return filled.length > 0 && filled.every((text) => NUMBER.test(text));
  });
}

const cellOf = (text: string): Cell => {
  const lines = text.split('\n');
  return { lines, widths: lines.map((line) => stringWidth(line)) };
};

/**
 * `head` (none when empty) and `rows` as a table. A column is as wide as `widths` says (a space either side
 * included), else as its widest line, and never narrower than that: nothing is cut. `ruled` draws a rule between
 * every two rows, so that a row of several lines is never read as several rows.
 */
export function boxTable(
  head: readonly string[],
  rows: ReadonlyArray<readonly string[]>,
  widths: readonly number[],
  ruled: boolean,
): string {
  const headCells = head.map(cellOf);
  const rowCells = rows.map((row) => row.map(cellOf));
  const all = headCells.length > 0 ? [headCells, ...rowCells] : rowCells;
  if (all.length === 0) return '';
  const columns = Math.max(...all.map((row) => row.length));
  const inner = Array.from({ length: columns }, (_, at) => {
    let widest = widths[at] === undefined ? 0 : widths[at] - 2;
    for (const row of all) for (const width of row[at]?.widths ?? []) widest = Math.max(widest, width);
    return widest;
  });
  const right = numericColumns(head, rows, columns);
  const rule = (left: string, middle: string, end: string) => `${left}${inner.map((width) => '─'.repeat(width + 2)).join(middle)}${end}`;
  const between = rule('├', '┼', '┤');
  const out = [rule('┌', '┬', '┐')];
  all.forEach((row, at) => {
    const isHead = at === 0 && headCells.length > 0;
    if (at > 0 && (ruled || (at === 1 && headCells.length > 0))) out.push(between);
    const height = Math.max(1, ...row.map((cell) => cell.lines.length));
    for (let line = 0; line < height; line += 1) {
      const texts = inner.map((width, column) => {
        const cell = row[column];
        const text = cell?.lines[line] ?? '';
        const pad = ' '.repeat(width - (cell?.widths[line] ?? 0));
        return right[column] && !isHead ? ` ${pad}${text} ` : ` ${text}${pad} `;
      });
      out.push(`│${texts.join('│')}│`);
    }
  });
  out.push(rule('└', '┴', '┘'));
  return out.join('\n');
}
