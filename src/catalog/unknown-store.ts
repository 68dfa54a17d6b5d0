// A misspelled --store is no error to the service: it answers with nothing, or a count of 0. When a result
// comes back empty, the stores asked for are checked against the ones the service knows (its sync cursors)
// and a store it does not know is named in a warning, with the ones it does.
import type { Context } from '../context.js';
import type { CatalogClient } from './client.js';

const normal = (store: string) => store.trim().toLowerCase();

export async function warnUnknownStores(ctx: Context, client: CatalogClient, stores: string[] | undefined): Promise<void> {
  const asked = (stores ?? []).filter((store) => normal(store) !== '');
  if (asked.length === 0) return;
  let known: string[];
  try {
    known = (await client.cursors()).map((cursor) => String(cursor.parser_name));
  } catch {
    return; // only a hint: the result stands without it
  }
  const knownNames = new Set(known.map(normal));
  const unknown = asked.filter((store) => !knownNames.has(normal(store)));
  if (unknown.length === 0) return;
  const named = unknown.map((store) => `"${store}"`).join(', ');
  ctx.log.warn(`the catalog knows no store ${named}: ${known.length > 0 ? `its stores are ${known.join(', ')}` : 'it has no stores'}`);
}
