// Which store row of a product a dynamics series is drawn from. A series is one store (parser_name) and that
// store's own product id (source_id); with both flags given nothing is asked. Otherwise the product's store
// rows are read once (the data of `catalog sources <id>`): the one row left after the flags given is the
// series, and when more than one is left (or none) the error lists them, so that the next command can be typed.
import { TridentError, ExitCode, usageError } from '../core/errors.js';
import { escapeControls } from '../core/term/printable.js';
import type { CatalogClient } from './client.js';
import { MAX_PAGE } from './validate.js';

export interface Series {
  parser_name: string;
  source_id: string;
}

export interface SeriesFlags {
  store?: string;
  sourceId?: string;
}

/** Store rows named in the hint; the rest are counted, and `catalog sources` shows them all. */
const LISTED = 5;

const given = (value: string | undefined): value is string => value !== undefined && value.trim() !== '';

export async function seriesOf(client: CatalogClient, product: string, flags: SeriesFlags): Promise<Series & { chosen: boolean }> {
  if (given(flags.store) && given(flags.sourceId)) return { parser_name: flags.store, source_id: flags.sourceId, chosen: false };
  const page = await client.sources(product, { limit: MAX_PAGE });
  const rows = page.items
    .map((row) => ({ parser_name: String(row.parser_name ?? ''), source_id: String(row.source_id ?? '') }))
    .filter((row) => row.parser_name !== '' && row.source_id !== '');
  const total = Math.max(page.meta.total ?? rows.length, rows.length);
  if (total === 0) throw new TridentError(ExitCode.notFound, `product ${product} has no store rows: there is no series to show`);
  const left = rows.filter(
    (row) => (!given(flags.store) || row.parser_name === flags.store) && (!given(flags.sourceId) || row.source_id === flags.sourceId),
  );
  if (left.length === 1 && total === rows.length) return { ...left[0]!, chosen: true };
  const named = [given(flags.store) ? `--store ${flags.store}` : '', given(flags.sourceId) ? `--source-id ${flags.sourceId}` : '']
    .filter(Boolean)
    .join(' ');
  const missing = given(flags.store) ? '--source-id' : given(flags.sourceId) ? '--store' : '--store and --source-id';
  const message =
    named === '' || left.length === 1
      ? `product ${product} has ${total} store rows: choose one with ${named === '' ? missing : '--store and --source-id'}`
      : left.length === 0
        ? `no store row of product ${product} matches ${named}`
        : `${named} matches ${left.length} store rows of product ${product}: choose one with ${missing}`;
  throw usageError(escapeControls(message), hintOf(left.length > 0 ? left : rows, total > rows.length, product));
}

/** The rows as flags to copy; `catalog sources` named when some are left out (past five, or past the page read). */
function hintOf(rows: Series[], pageCut: boolean, product: string): string {
  const listed = rows
    .slice(0, LISTED)
    .map((row) => `--store ${row.parser_name} --source-id ${row.source_id}`)
    .join(', ');
  const more = pageCut || rows.length > LISTED ? `; all of them: trident catalog sources ${product}` : '';
  return escapeControls(`${listed}${more}`);
}
