// A list too wide for the terminal even with only the columns that must stay: one record per block, as gh
// prints what does not fit a table. Each field is a "label: value" line, labels aligned, values wrapped beside
// them; a blank line between records. Empty fields are left out.
import stringWidth from 'string-width';
import { wrapCell } from '../wrap.js';

/** `records` as blocks of `labels` and values, `width` columns wide; `bold` marks the labels. */
export function blocks(labels: readonly string[], records: readonly string[][], width: number, bold: (text: string) => string): string {
  const indent = Math.max(...labels.map((label) => stringWidth(label))) + 2;
  const block = (values: readonly string[]) =>
    values.flatMap((value, at) => (value === '' ? [] : field(bold(`${labels[at]}:`), stringWidth(labels[at]!) + 1, value, indent, width)));
  return `${records.map((values) => block(values).join('\n')).join('\n\n')}\n`;
}

/**
 * One field's lines: the value beside its label; or, when a piece of it that may not split (an id) is wider
 * than the room beside the label, under it, indented two spaces if it fits so.
 */
function field(label: string, labelWidth: number, value: string, indent: number, width: number): string[] {
  const within = (lines: string[], room: number) => lines.every((line) => stringWidth(line) <= room);
  const beside = wrapCell(value, width - indent).split('\n');
  if (within(beside, width - indent))
    return beside.map((line, at) => (at === 0 ? label + ' '.repeat(indent - labelWidth) : ' '.repeat(indent)) + line);
  const indented = wrapCell(value, width - 2).split('\n');
  const under = within(indented, width - 2) ? indented.map((line) => `  ${line}`) : wrapCell(value, width).split('\n');
  return [label, ...under];
}
