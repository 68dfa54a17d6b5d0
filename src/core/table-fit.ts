// Table column widths for a terminal: a table wider than the terminal wraps every row into a mess, so the
// widest columns give way first (their cells are cut with "…") until the table fits. The first column (an
// id, or a record's field names) keeps its width: it is what the next command needs.
import stringWidth from 'string-width';

/** Narrowest a column is made, padding included: enough for a few characters and the "…". */
export const MIN_COLUMN_WIDTH = 6;

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
 * Widths (padding included) whose table, with its n + 1 vertical borders, fits in `available` columns: the
 * widest column but the first is narrowed a column at a time (so wide ones end up equally wide), never below
 * MIN_COLUMN_WIDTH. A table that cannot fit even so keeps those minimum widths.
 */
export function fitWidths(natural: number[], available: number): number[] {
  const widths = [...natural];
  let total = widths.reduce((sum, width) => sum + width, 0) + widths.length + 1;
  while (total > available) {
    let widest = 1;
    for (let column = 2; column < widths.length; column += 1) if (widths[column]! > widths[widest]!) widest = column;
    if (!(widths[widest]! > MIN_COLUMN_WIDTH)) break;
    widths[widest] = widths[widest]! - 1;
    total -= 1;
  }
  return widths;
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
    current = '';
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
