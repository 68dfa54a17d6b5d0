// A terminal line chart of a dynamics series, gaps kept as gaps. asciichart cannot plot a missing value
// (it throws on undefined and draws nonsense for NaN), so each contiguous run of values is plotted on its
// own with a shared min, max and height, and the runs are pasted side by side on one canvas, leaving the
// columns of missing points blank. A short series is widened (each point a few columns); a longer one than
// fits is averaged down to one value per column, so any length is drawn in the same time and memory.
// asciichart rounds a value's row from zero, not from the bottom of the axis, which can put it a row off
// its nearest label: it is given the values less the bottom of the axis, and its labels add it back. The
// axes themselves (chart-scale.ts) keep every line within the terminal's width.
// Labels and dates come from the service: they are escaped like table cells, never sent raw to a terminal.
import { escapeControls } from '../core/term/printable.js';
import { wrapCell } from '../core/term/wrap.js';
import { timeAxis, valueScale } from './chart-scale.js';

export interface ChartInput {
  dates: string[];
  values: Array<number | null>;
  /** What the y axis shows, e.g. "price (RUB)". */
  label: string;
  /** Terminal columns available, axis included. */
  width: number;
  /** Rows at most above the bottom one. */
  height?: number;
  /** Labels without decimals (a stock count). */
  wholeNumbers?: boolean;
}

interface Run {
  start: number;
  values: number[];
}

const DEFAULT_HEIGHT = 10;
const MIN_PLOT_COLUMNS = 10;
const MAX_COLUMNS_PER_POINT = 4;

/**
 * One value per column: each point repeated up to MAX_COLUMNS_PER_POINT times when there is room, or
 * points averaged when there are more than `columns`; a column with no value at all stays null.
 */
export function fitColumns(values: Array<number | null>, columns: number): Array<number | null> {
  if (values.length <= columns) {
    const repeat = Math.max(1, Math.min(MAX_COLUMNS_PER_POINT, Math.floor(columns / values.length)));
    return values.flatMap((value) => Array<number | null>(repeat).fill(value));
  }
  return Array.from({ length: columns }, (_, column) => {
    const slice = values.slice(Math.floor((column * values.length) / columns), Math.floor(((column + 1) * values.length) / columns));
    const present = slice.filter((value): value is number => value !== null);
    return present.length === 0 ? null : present.reduce((sum, value) => sum + value, 0) / present.length;
  });
}

/** The contiguous stretches of non-null values. */
export function runsOf(values: Array<number | null>): Run[] {
  const runs: Run[] = [];
  let current: Run | undefined;
  values.forEach((value, index) => {
    if (value === null || !Number.isFinite(value)) {
      current = undefined;
    } else if (current) {
      current.values.push(value);
    } else {
      current = { start: index, values: [value] };
      runs.push(current);
    }
  });
  return runs;
}

/** The smallest and largest value of a series of any length (spreading it into Math.min overflows the stack). */
function extent(values: Array<number | null>): { min: number; max: number } | undefined {
  let min = Infinity;
  let max = -Infinity;
  for (const value of values) {
    if (value === null || !Number.isFinite(value)) continue;
    if (value < min) min = value;
    if (value > max) max = value;
  }
  return min <= max ? { min, max } : undefined;
}

/** The chart as text (no trailing newline), or a one-line note when the series has no value at all. */
export async function renderChart(input: ChartInput): Promise<string> {
  const label = escapeControls(input.label);
  const range = extent(input.values);
  if (!range)
    return `${label}: no values between ${escapeControls(input.dates[0] ?? '?')} and ${escapeControls(input.dates.at(-1) ?? '?')}`;
  const scale = valueScale(range.min, range.max, input.height ?? DEFAULT_HEIGHT, Boolean(input.wholeNumbers));
  const formatValue = (value: number) => value.toFixed(scale.decimals);
  const top = scale.bottom + scale.rows * scale.step;
  // asciichart puts a label narrower than three characters over its axis.
  const labelWidth = Math.max(3, formatValue(scale.bottom).length, formatValue(top).length);
  const prefixWidth = labelWidth + 2; // label, a space, the axis
  const columns = fitColumns(input.values, Math.max(MIN_PLOT_COLUMNS, input.width - prefixWidth - 1));
  const runs = runsOf(columns.map((value) => (value === null ? null : value - scale.bottom)));

  const asciichart = await import('asciichart');
  const plot = (asciichart as unknown as { default?: typeof asciichart }).default?.plot ?? asciichart.plot;
  const config = {
    min: 0,
    max: top - scale.bottom,
    height: Math.max(1, scale.rows),
    format: (value: number) => formatValue(value + scale.bottom).padStart(labelWidth),
  };
  // Each run gets its last value once more, so that its last point has a column of its own (asciichart
  // draws the step from point x to x+1 in column x, and nothing after the last point).
  const plots = runs.map((run) => plot([...run.values, run.values.at(-1)!], config).split('\n'));

  const canvas = plots[0]!.map(() => Array<string>(columns.length).fill(' '));
  runs.forEach((run, r) => {
    plots[r]!.forEach((line, row) => {
      const cells = [...line.slice(prefixWidth, prefixWidth + run.values.length)];
      canvas[row]!.splice(run.start, cells.length, ...cells);
    });
  });
  // The axis carries the labels; it marks the row of the first value when the series starts with one.
  const rows = plots[0]!.length - 1;
  const firstRow = runs[0]!.start === 0 ? rows - Math.round(scale.rows > 0 ? runs[0]!.values[0]! / scale.step : 0) : -1;
  const axis = plots[0]!.map((line, row) => `${line.slice(0, labelWidth)} ${row === firstRow ? '┼' : '┤'}`);
  const lines = canvas.map((cells, row) => `${axis[row]}${cells.join('')}`.trimEnd());

  const perColumn = input.values.length / columns.length;
  const title = perColumn > 1 ? `${label}, each column the mean of up to ${Math.ceil(perColumn)} points` : label;
  return [wrapCell(title, input.width), ...lines, ...timeAxis(input.dates, prefixWidth, columns.length, input.width)].join('\n');
}
