// The rows of a list as they arrive: all at once, one at a time, or a page at a time (`--all`).

/**
 * The rows of a list: any iterable, or `{ pages }` when they arrive a page at a time (`--all`), which are
 * then written a page at a time too.
 */
export type Rows<T> = Iterable<T> | AsyncIterable<T> | { pages: AsyncIterable<readonly T[]> };

export function pagesOf<T>(rows: Rows<T>): AsyncIterable<readonly T[]> | Iterable<readonly T[]> {
  if ('pages' in rows) return rows.pages;
  if (Symbol.asyncIterator in rows) return oneByOne(rows);
  return [Array.from(rows)];
}

/** Every row, held: for what needs them all (a table, jq). */
export async function allRows<T>(rows: Rows<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const page of pagesOf(rows)) for (const row of page) all.push(row);
  return all;
}

/** Rows that arrive one at a time are written as they arrive. */
async function* oneByOne<T>(rows: AsyncIterable<T>): AsyncIterable<readonly T[]> {
  for await (const row of rows) yield [row];
}
