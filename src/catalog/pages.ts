// --all: every page of a list, as the pages arrive. The next pages are asked for while one is
// written (each on a kept-alive connection of its own), so the service never
// waits for us to parse; at most PAGES_AHEAD + 2 pages are held (the one before too, to compare), so memory
// stays flat whatever the size.
// A service whose paging cannot be right stops the walk with exit 8 rather than printing rows for ever: it
// sends a page it sent before (it ignores offset, or its pages go round in a circle), its pages hold more rows
// than its first page said the list has, or its total moves away as fast as the pages are read. Each page seen
// is remembered by a hash, not kept.
import { ExitCode, TridentError } from '../core/errors.js';
import { pageSignature } from './page-signature.js';
import type { Page } from '../wire/catalog/answers.js';

export type FetchPage<T> = (limit: number, offset: number) => Promise<Page<T>>;

export interface PageProgress {
  /** Rows received so far. */
  fetched: number;
  /** Rows the list has from the starting offset on, as the last page said. */
  total: number;
}

/**
 * Requests in flight beyond the page being written. Deeper queues were only a little faster, and each page waiting
 * is already parsed and outlives young collections, so memory grows with every page asked ahead.
 */
export const PAGES_AHEAD = 2;

/** Pages in a row after which as much of the list is left as before: its total runs away from the offset. */
export const MAX_PAGES_WITHOUT_PROGRESS = 3;

/**
 * Rows a list may gain while it is read (products keep arriving) beyond what its first page said it has: a tenth
 * more, and at least a page. A service whose pages go on past that is not paging one list.
 */
export function rowsAllowed(firstTotal: number, limit: number): number {
  return firstTotal + Math.max(limit, Math.ceil(firstTotal / 10));
}

/** Every page's items, in order; an empty page is not yielded. */
export async function* pages<T>(
  fetchPage: FetchPage<T>,
  start: { limit: number; offset: number },
  onPage?: (progress: PageProgress) => void,
): AsyncGenerator<readonly T[]> {
  let ahead: Array<Promise<Page<T>>> = [];
  let nextOffset = start.offset;
  const ask = () => {
    const page = fetchPage(start.limit, nextOffset);
    // Handled when awaited; this keeps a failure from being reported as unhandled if the reader stops first.
    page.catch(() => undefined);
    ahead.push(page);
    nextOffset += start.limit;
  };
  let offset = start.offset;
  let fetched = 0;
  /** The offset of each page seen, by its signature; and the offset of the last one. */
  const seen = new Map<string, number>();
  let previousOffset: number | undefined;
  let firstTotal: number | undefined;
  let left = Infinity;
  let withoutProgress = 0;
  ask();
  while (ahead.length > 0) {
    const page = await ahead.shift()!;
    const total = page.meta.total;
    const end = offset + page.items.length;
    if (page.items.length > 0) {
      const signature = pageSignature(page.items);
      const seenAt = seen.get(signature);
      if (seenAt !== undefined) throw repeatedPage(offset, seenAt, seenAt === previousOffset);
      seen.set(signature, offset);
      previousOffset = offset;
    }
    firstTotal ??= Math.max(total - start.offset, 0);
    if (fetched + page.items.length > rowsAllowed(firstTotal, start.limit)) {
      throw pagingError(
        `its pages hold more rows than the ${firstTotal} its first page said the list has (${fetched + page.items.length} so far)`,
      );
    }
    withoutProgress = total - end >= left ? withoutProgress + 1 : 0;
    left = total - end;
    if (withoutProgress >= MAX_PAGES_WITHOUT_PROGRESS) {
      throw pagingError(`the list's total keeps moving ahead (${total} at offset ${end}) as fast as its pages are read`);
    }
    if (page.items.length === 0 || end >= total) {
      ahead = [];
    } else if (page.items.length < start.limit) {
      // A short page before the end: the list changed under us. Go on from where this page ended.
      ahead = [];
      nextOffset = end;
    }
    while (page.items.length > 0 && ahead.length < PAGES_AHEAD && nextOffset < total) ask();
    fetched += page.items.length;
    onPage?.({ fetched, total: Math.max(total - start.offset, fetched) });
    if (page.items.length > 0) yield page.items;
    offset = end;
  }
}

function repeatedPage(offset: number, seenAt: number, justBefore: boolean): TridentError {
  return pagingError(
    justBefore
      ? `the page at offset ${offset} is the same as the one at offset ${seenAt}: the service seems to ignore offset`
      : `the page at offset ${offset} is the same as the one at offset ${seenAt}: the service's pages go round in a circle`,
  );
}

function pagingError(what: string): TridentError {
  return new TridentError(ExitCode.unavailable, `stopped following the pages of the catalog service: ${what}`, {
    hint: 'the rows shown so far may repeat or miss some; page by hand with --limit and --offset, or try again later',
    code: 'PAGING',
  });
}
