// --paginate: every page of one of the catalog's lists, each printed as it arrives (with -i its headers, with
// --jq the filter run on each page), as gh api prints the pages of a list one after another. The walk is the
// one of `catalog ... --all` (src/catalog/pages.ts): pages asked for ahead, a list that changes while it is read
// followed from where it got to, a service whose paging cannot be right stopped with exit 8. A page refused
// (4xx) is printed and ends the command by its status; what was printed before it stays.
import { ExitCode, TridentError, usageError } from '../core/errors.js';
import type { HttpResponse } from '../core/http/client.js';
import { parseJson } from '../core/json/parse.js';
import { MAX_PAGE, integer } from '../catalog/validate.js';
import type { Context } from '../context.js';
import type { Page } from '../wire/catalog/answers.js';
import { printAnswer, readAnswer, refusal, type ApiAnswer } from './print.js';
import type { RawRequest } from './request.js';

/** The catalog's lists, read by offset and limit: what the catalog client pages too. */
export const PAGED_PATHS = ['/products', '/categories', '/settlements'];

export interface PageStart {
  limit: number;
  offset: number;
}

/** Where the walk starts: limit (default the largest page) and offset from the query. Checked before anything is sent. */
export function pageStart(service: string, request: RawRequest): PageStart {
  if (service !== 'catalog' || request.method !== 'GET' || !PAGED_PATHS.includes(request.path)) {
    throw usageError(
      `--paginate follows the pages of the catalog's lists only (GET ${PAGED_PATHS.join(', ')}), not ${service} ${request.method} ${request.path}`,
      'leave out --paginate, or page by hand with offset and limit in the query',
    );
  }
  const limit = integer(request.query.get('limit') ?? undefined, 'limit', { min: 1, max: MAX_PAGE }) ?? MAX_PAGE;
  const offset = integer(request.query.get('offset') ?? undefined, 'offset', { min: 0 }) ?? 0;
  return { limit, offset };
}

/** A refused page travels through the walk to be printed in its turn. */
class RefusedPage extends Error {
  constructor(readonly answer: ApiAnswer) {
    super('refused page');
  }
}

export async function printPages(
  ctx: Context,
  serviceName: string,
  request: RawRequest,
  start: PageStart,
  send: (query: URLSearchParams) => Promise<HttpResponse>,
  include: boolean,
): Promise<void> {
  const { pages } = await import('../catalog/pages.js');
  const answers = new WeakMap<readonly unknown[], ApiAnswer>();
  let first: ApiAnswer | undefined;
  const fetchPage = async (limit: number, offset: number): Promise<Page> => {
    const query = new URLSearchParams(request.query);
    query.set('limit', String(limit));
    query.set('offset', String(offset));
    const answer = readAnswer(serviceName, await send(query));
    first ??= answer;
    if (answer.response.status >= 400) throw new RefusedPage(answer);
    const page = pageOf(answer.text, serviceName, request.path);
    answers.set(page.items, answer);
    return page;
  };
  let printed = 0;
  const print = async (answer: ApiAnswer) => {
    // With -i an empty line between one page's body and the next page's status line, as gh api.
    if (include && printed > 0) await ctx.output.write('\n');
    await printAnswer(ctx, answer, include);
    printed += 1;
  };
  try {
    for await (const items of pages(fetchPage, start)) await print(answers.get(items)!);
  } catch (error) {
    if (!(error instanceof RefusedPage)) throw error;
    await print(error.answer);
    throw refusal(serviceName, error.answer);
  }
  // An empty list: its one page, as it came.
  if (printed === 0 && first) await print(first);
}

/** The page as the walk reads it: items and meta.total (parsed without big integers, which it hashes as JSON). */
function pageOf(text: string, serviceName: string, path: string): Page {
  const parsed = parseJson(text);
  const body = parsed.ok ? (parsed.value as { items?: unknown; meta?: { total?: unknown } } | null) : undefined;
  if (body && Array.isArray(body.items) && typeof body.meta?.total === 'number') return body as Page;
  throw new TridentError(ExitCode.unavailable, `${serviceName} answered GET ${path} with a page without items and meta.total`, {
    hint: 'check that the URL points at the catalog service',
  });
}
