// The columns of a list: what a table shows of each row, and the names --columns chooses among.
import { usageError } from '../../errors.js';

export interface Column<T> {
  header: string;
  value: (row: T) => unknown;
  /** The field of the machine record it shows: the name --columns takes (default: the header). */
  key?: string;
  /**
   * Hidden to fit a narrow terminal, lowest first (a table never cuts a number or an id). In a list that ranks
   * any column, one without a rank stays at every width; when those do not fit, the list is printed one
   * record per block.
   */
  hide?: number;
  /** Stays at every width: for a list whose columns all stay, which therefore ranks none. */
  keep?: boolean;
  /**
   * Text a person wrote that is read rather than copied (a key's name): on a narrow terminal it may break
   * between any two characters, so that it can stay where a whole word of it would not fit.
   */
  breakable?: boolean;
}

/**
 * What a narrow terminal may take from a list, by field name (--columns names): `keep`, the columns that stay at
 * every width (ids, the key in use, totals and amounts); `drop`, the others, in the order they go. A list
 * without one keeps its first column and drops the others from the last.
 */
export interface Importance {
  keep: readonly string[];
  drop: readonly string[];
}

/** `columns` ranked by `importance`; a column it does not name is a mistake in the list's declaration. */
export function byImportance<T>(columns: Array<Column<T>>, { keep, drop }: Importance): Array<Column<T>> {
  return columns.map((column) => {
    const key = keyOf(column);
    if (keep.includes(key)) return { ...column, keep: true };
    if (!drop.includes(key)) throw new Error(`column ${key} is neither kept nor dropped`);
    return { ...column, hide: drop.indexOf(key) + 1 };
  });
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
