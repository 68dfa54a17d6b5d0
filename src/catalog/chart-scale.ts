// The two axes of a terminal chart. The value axis steps by 1, 2 or 5 times a power of ten, never finer than
// its labels can show (a cent for prices, one for stock), so that no two rows carry the same label and every
// label is the value of its row. The time axis marks a column every few, as far apart as a date label is
// wide, and prints the date of the point in that column under the mark.
import { escapeControls } from '../core/term/printable.js';

export interface ValueScale {
  /** The value of the bottom row, a whole number of steps. */
  bottom: number;
  step: number;
  /** Rows above the bottom one. */
  rows: number;
  decimals: number;
}

const NICE = [1, 2, 5, 10];

export function valueScale(min: number, max: number, maxRows: number, wholeNumbers: boolean): ValueScale {
  const decimals = wholeNumbers ? 0 : 2;
  const finest = 10 ** -decimals;
  if (max <= min) return { bottom: min, step: finest, rows: 0, decimals };
  const raw = Math.max(finest, (max - min) / Math.max(1, maxRows));
  const power = 10 ** Math.floor(Math.log10(raw));
  // Each candidate step in turn: the first whose whole steps around min..max fit in maxRows rows.
  for (const step of [...NICE.map((each) => each * power), ...NICE.map((each) => each * power * 10)]) {
    if (step < finest - finest / 1e6) continue;
    const low = Math.floor(min / step + 1e-9);
    const high = Math.ceil(max / step - 1e-9);
    if (high - low <= maxRows) return { bottom: low * step, step, rows: high - low, decimals };
  }
  const step = (max - min) / maxRows;
  return { bottom: min, step, rows: maxRows, decimals };
}

/** The date of a point as the time axis shows it: the day at midnight UTC, else month, day and UTC time. */
export function tickLabel(iso: string, allMidnight: boolean): string {
  const match = /^(\d{4})-(\d{2}-\d{2})T(\d{2}:\d{2})(?::[\d.]+)?(?:Z|\+00:00)$/.exec(iso);
  if (!match) return escapeControls(iso);
  return allMidnight ? `${match[1]}-${match[2]}` : `${match[2]} ${match[3]}Z`;
}

const isMidnight = (iso: string) => /T00:00(?::00(?:\.0+)?)?(?:Z|\+00:00)$/.test(iso);

/**
 * The line under the plot with a mark at each labelled column, and the line of labels under it, both at most
 * `width` wide. Column c of `columns` shows the point its first value came from.
 */
export function timeAxis(dates: string[], indent: number, columns: number, width: number): [string, string] {
  const allMidnight = dates.every(isMidnight);
  const labelOf = (column: number) =>
    tickLabel(dates[Math.min(dates.length - 1, Math.floor((column * dates.length) / columns))]!, allMidnight);
  const labelWidth = labelOf(0).length;
  // Marks go on the first column of a point (of each column when points are averaged), spread evenly from the
  // first one to the last whose label still fits, at least a label and two spaces apart.
  const perPoint = Math.max(1, Math.floor(columns / dates.length));
  const lastSlot = Math.max(0, Math.min(Math.floor((columns - 1) / perPoint), Math.floor((width - indent - labelWidth) / perPoint)));
  const gaps = Math.floor(lastSlot / Math.ceil((labelWidth + 2) / perPoint));
  const ticks = gaps === 0 ? [0] : Array.from({ length: gaps + 1 }, (_, i) => perPoint * Math.round((i * lastSlot) / gaps));
  const marks = Array.from({ length: columns }, (_, column) => (ticks.includes(column) ? '┬' : '─')).join('');
  let labels = '';
  for (const column of ticks) labels = `${labels.padEnd(column)}${labelOf(column)}`;
  const last = tickLabel(dates.at(-1)!, allMidnight);
  if (ticks.length < 2 && dates.length > 1 && indent + labels.length + 3 + last.length <= width) labels += ` → ${last}`;
  return [`${' '.repeat(indent - 1)}└${marks}`, `${' '.repeat(indent)}${labels}`];
}
