// What every paged list command shares: --limit/--offset/--all, the one page or every page, and the rows
// written as they arrive (lists in machine formats are their items, DESIGN §2.8).
import type { Command } from 'commander';
import type { Context } from '../context.js';
import type { Column } from '../core/output.js';
import type { CatalogClient, Page, PageRequest } from './client.js';
import { addConnectionOption, connect, type ConnectionOptions } from './connection.js';
import { pages } from './pages.js';
import { pageProgress } from './progress.js';
import { MAX_PAGE, pageLimit, pageOffset } from './validate.js';

export interface ListOptions extends ConnectionOptions {
  limit?: string;
  offset?: string;
  all?: boolean;
}

export interface ListSpec<T> {
  /** Plural noun for notes: "products". */
  noun: string;
  columns: Array<Column<T>>;
  fetch(client: CatalogClient, page: PageRequest): Promise<Page<T>>;
}

export function addListOptions(command: Command): Command {
  return addConnectionOption(command)
    .option('--limit <n>', `rows per page, 1 to ${MAX_PAGE} (service default 20; with --all, pages of ${MAX_PAGE})`)
    .option('--offset <n>', 'rows to skip first (default 0)')
    .option('--all', 'follow every page, streaming rows as they arrive');
}

/** Checks the paging options (before anything is sent), then prints one page or, with --all, every page. */
export async function printList<T>(ctx: Context, opts: ListOptions, spec: ListSpec<T>): Promise<void> {
  const limit = pageLimit(opts.limit);
  const offset = pageOffset(opts.offset);
  const client = await connect(ctx, opts);
  if (opts.all) {
    const progress = pageProgress(ctx, spec.noun);
    let shown: number;
    try {
      const rows = pages((size, from) => spec.fetch(client, { limit: size, offset: from }), { limit: limit ?? MAX_PAGE, offset: offset ?? 0 }, progress?.update);
      shown = await ctx.output.list(rows, spec.columns);
    } finally {
      progress?.done();
    }
    if (shown === 0 && ctx.io.stderr.isTTY) ctx.log.info(`no ${spec.noun}`);
    return;
  }
  const page = await spec.fetch(client, { limit, offset });
  await ctx.output.list(page.items, spec.columns);
  noteMore(ctx, spec.noun, page);
}

/** On a terminal: which rows these were and how to get the rest, or that there were none. */
function noteMore<T>(ctx: Context, noun: string, page: Page<T>): void {
  if (!ctx.io.stderr.isTTY) return;
  const start = page.meta.offset ?? 0;
  const end = start + page.items.length;
  const total = page.meta.total;
  if (page.items.length === 0) ctx.log.info(total === 0 ? `no ${noun}` : `no ${noun} from --offset ${start}: there are ${total}`);
  else if (end < total) ctx.log.info(`${noun} ${start + 1}–${end} of ${total}; next page: --offset ${end}, every page: --all`);
}
