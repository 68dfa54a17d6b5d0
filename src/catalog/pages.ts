// --all: every page of a list, row by row, as the pages arrive. At most two pages are held at once (the one
// being written and the next one, asked for meanwhile), so memory stays flat whatever the catalog size;
// only one request is in flight at a time, so one keep-alive connection carries them all.
import type { Page } from './client.js';

export type FetchPage<T> = (limit: number, offset: number) => Promise<Page<T>>;

export interface PageProgress {
  /** Rows received so far. */
  fetched: number;
  /** Rows the list has from the starting offset on, as the last page said. */
  total: number;
}

/**
 * undici marks a connection free again only after the code that read the answer has run; a request sent
 * at once would open a second connection. One turn of the event loop later, the first one is reused.
 */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function* pages<T>(fetchPage: FetchPage<T>, start: { limit: number; offset: number }, onPage?: (progress: PageProgress) => void): AsyncGenerator<T> {
  let offset = start.offset;
  let fetched = 0;
  let next = fetchPage(start.limit, offset);
  for (;;) {
    const page = await next;
    const end = offset + page.items.length;
    const more = page.items.length > 0 && end < page.meta.total;
    if (more) {
      next = nextTurn().then(() => fetchPage(start.limit, end));
      // Handled when awaited; this keeps a failure from being reported as unhandled if the reader stops first.
      next.catch(() => undefined);
    }
    fetched += page.items.length;
    onPage?.({ fetched, total: Math.max(page.meta.total - start.offset, fetched) });
    yield* page.items;
    if (!more) return;
    offset = end;
  }
}
