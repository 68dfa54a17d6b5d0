// The columns of a list: what a table shows of each row, and the names --columns chooses among.
import { usageError } from '../../errors.js';

export interface Column<T> {
  header: string;
  value: (row: T) => unknown;
  /** The field of the machine record it shows: the name --columns takes (default: the header). */
  key?: string;
  /** Hidden to fit a narrow terminal, lowest first (a table never cuts a number or an id); a column without one is always shown. */
  hide?: number;
}

export type Row = Record<string, unknown>;

export const keyOf = (column: Column<never>) => column.key ?? column.header;

/** `--columns a,b,c` as a list of names; an empty name is a usage error. */
export function parseColumnNames(text: string): string[] {
  const names = text.split(',').map((name) => name.trim());
  if (names.some((name) => name === ''))
    throw usageError(`invalid --columns "${text}": expected names separated by commas, e.g. --columns id,title`);
  return names;
}

/** A column --columns asks for that the table does not define: the record's field of that name. */
export function recordColumn<T>(name: string, toRecord: (row: T) => Row): Column<T> {
  return { header: name, key: name, value: (row) => toRecord(row)[name] };
}
