// What every paged list command shares: --limit/--offset/--all, the one page or every page, and the rows
// written as they arrive. In -o json one page is {"items", "meta"} so that a script can page on; --all
// gives the array of every item.
import type { Command, OptionValues } from '@commander-js/extra-typings';
import type { Context } from '../context.js';
import type { Column } from '../core/term/output/columns.js';
import type { CatalogClient, PageRequest } from './client.js';
import type { Page } from '../wire/catalog/answers.js';
import { addConnectionOptions, connect, type ConnectionOptions } from './connection.js';
import { pages } from './pages.js';
import { warnUnknownStores } from './unknown-store.js';
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
  /** The fields of an item, as the service names them: an empty csv's header, what --columns takes. */
  fields: readonly string[];
  /** The --store asked for, if any: an empty list then checks it is a store the service knows. */
  store?: string;
  fetch(client: CatalogClient, page: PageRequest): Promise<Page<T>>;
}

export function addListOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(command: Command<A, O, G>) {
  return addConnectionOptions(command)
    .option('--limit <n>', `rows per page, 1 to ${MAX_PAGE} (service default 20; with --all, pages of ${MAX_PAGE})`)
    .option('--offset <n>', 'rows to skip first (default 0)')
    .option('--all', 'follow every page, streaming rows as they arrive');
}

/** Checks the paging options and --columns (before anything is sent), then prints one page or, with --all, every page. */
export async function printList<T>(ctx: Context, opts: ListOptions, spec: ListSpec<T>): Promise<void> {
  const limit = pageLimit(opts.limit);
  const offset = pageOffset(opts.offset);
  ctx.output.checkColumns([...new Set([...spec.fields, ...spec.columns.map((column) => column.key ?? column.header)])]);
  const client = await connect(ctx, opts);
  if (opts.all) {
    const progress = ctx.progress(spec.noun);
    let shown: number;
    try {
      const every = pages(
        (size, from) => spec.fetch(client, { limit: size, offset: from }),
        { limit: limit ?? MAX_PAGE, offset: offset ?? 0 },
        progress && (({ fetched, total }) => progress.update(fetched, total)),
      );
      shown = await ctx.output.list({ pages: every }, spec.columns, undefined, spec.fields);
    } finally {
      progress?.end();
    }
    if (shown === 0) await noneFound(ctx, client, spec);
    return;
  }
  const page = await spec.fetch(client, { limit, offset });
  if (ctx.format === 'json') await ctx.output.object({ items: page.items, meta: pageMeta(page) });
  else await ctx.output.list(page.items, spec.columns, undefined, spec.fields);
  noteMore(ctx, spec.noun, page);
  if (page.items.length === 0) await warnUnknownStores(ctx, client, spec.store === undefined ? undefined : [spec.store]);
}

/** The page's place in the list, and where the next one starts (null after the last). */
export function pageMeta<T>(page: Page<T>): { limit: number; offset: number; total: number; next_offset: number | null } {
  const offset = page.meta.offset ?? 0;
  const end = offset + page.items.length;
  return {
    limit: page.meta.limit,
    offset,
    total: page.meta.total,
    next_offset: page.items.length > 0 && end < page.meta.total ? end : null,
  };
}

async function noneFound<T>(ctx: Context, client: CatalogClient, spec: ListSpec<T>): Promise<void> {
  if (ctx.io.stderr.isTTY) ctx.log.info(`no ${spec.noun}`);
  await warnUnknownStores(ctx, client, spec.store === undefined ? undefined : [spec.store]);
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
