// --all: every page of a list, row by row, as the pages arrive. The next pages are asked for while one is
// written (HTTP/1.1 pipelining on the one keep-alive connection, see connection.ts), so the service never
// waits for us to parse; at most PAGES_AHEAD + 1 pages are held, so memory stays flat whatever the size.
import type { Page } from './client.js';

export type FetchPage<T> = (limit: number, offset: number) => Promise<Page<T>>;

export interface PageProgress {
  /** Rows received so far. */
  fetched: number;
  /** Rows the list has from the starting offset on, as the last page said. */
  total: number;
}

/** Requests in flight beyond the page being written. */
export const PAGES_AHEAD = 2;

export async function* pages<T>(fetchPage: FetchPage<T>, start: { limit: number; offset: number }, onPage?: (progress: PageProgress) => void): AsyncGenerator<T> {
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
  ask();
  while (ahead.length > 0) {
    const page = await ahead.shift()!;
    const total = page.meta.total;
    const end = offset + page.items.length;
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
    yield* page.items;
    offset = end;
  }
}
