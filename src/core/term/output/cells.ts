// A value as the text of one cell: on a terminal with its control characters escaped, in csv or tsv safe to
// open in a spreadsheet and unable to break a line or a column.
import { jsonText } from '../../json/big-integers.js';
import { escapeControls, escapeDataControls } from '../printable.js';
import type { Format } from './format.js';
import { spreadsheetSafe } from './spreadsheet-safe.js';

/** A cell value as text: nulls empty, lists comma-joined, objects as JSON. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value) && value.every((item) => typeof item !== 'object' || item === null)) return value.join(',');
  if (typeof value === 'object') return jsonText(value);
  return String(value);
}

/** A cell as a terminal shows it: control, bidi and zero-width characters escaped, newlines too (one row, one line). */
export function printable(value: unknown): string {
  return escapeControls(cellText(value));
}

/** A csv or tsv cell's text before the format's own escapes: safe to open in a spreadsheet (see spreadsheet-safe.ts). */
const dataText = (value: unknown, decimal?: boolean) => spreadsheetSafe(value, cellText(value), decimal);

/**
 * TSV cannot quote: escape the characters that would break a line or a column, and every other control
 * character (ESC as "\e"), so that `trident ... | grep` cannot drive the terminal it prints on.
 */
export function tsvField(value: unknown, decimal?: boolean): string {
  return escapeDataControls(
    dataText(value, decimal).replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\r/g, '\\r').replace(/\n/g, '\\n'),
  );
}

/** One csv or tsv line of `values`; `decimals` says which of them are decimals written as text. */
export type LineWriter = (values: readonly unknown[], decimals?: readonly boolean[]) => string;

/** What writes a CSV record: quoted where needed (newlines and tabs stay, quoted), other control characters escaped. */
async function csvWriter(): Promise<LineWriter> {
  const { stringify } = await import('csv-stringify/sync');
  return (values, decimals) =>
    stringify([values.map((value, at) => escapeDataControls(dataText(value, decimals?.[at])))], { eof: true, record_delimiter: '\n' });
}

const tsvLine: LineWriter = (values, decimals) => `${values.map((value, at) => tsvField(value, decimals?.[at])).join('\t')}\n`;

/** What writes one csv or tsv line (csv's writer is loaded only when needed). */
export async function lineWriter(format: Format): Promise<LineWriter> {
  return format === 'csv' ? csvWriter() : tsvLine;
}
