// The catalog's reference tables, categories and settlements, and the converter's sync cursors.
import { timeKeySql } from '../products.js';
import { categoryItem, cursorItem, settlementItem, type Row } from '../serialize.js';
import { pythonStrip } from '../values.js';
import type { ListPage, PageRequest, Prepare } from './query-types.js';

export class ReferenceQueries {
  constructor(private readonly statement: Prepare) {}

  listCategories(
    filters: { parserName: string | null; depth: number | null; parentSourceUid: string | null; q: string | null },
    page: PageRequest,
  ): ListPage<Row> {
    const clauses: string[] = [];
    const params: Record<string, unknown> = {};
    if (filters.parserName) {
      clauses.push('parser_name = @parser_name');
      params.parser_name = filters.parserName;
    }
    if (filters.depth !== null) {
      clauses.push('depth = @depth');
      params.depth = filters.depth;
    }
    if (filters.parentSourceUid) {
      clauses.push('parent_source_uid = @parent_source_uid');
      params.parent_source_uid = filters.parentSourceUid;
    }
    if (filters.q) {
      clauses.push(likeAny(['title', 'title_normalized', 'alias', 'source_uid']));
      params.q = `%${pythonStrip(filters.q).toLowerCase()}%`;
    }
    return this.listTable('catalog_categories', clauses, params, page, categoryItem);
  }

  getCategory(id: number): Row | null {
    const row = this.statement('SELECT * FROM catalog_categories WHERE id = ? LIMIT 1').get(id) as Row | undefined;
    return row ? categoryItem(row) : null;
  }

  listSettlements(filters: { country: string | null; region: string | null; q: string | null }, page: PageRequest): ListPage<Row> {
    const clauses: string[] = [];
    const params: Record<string, unknown> = {};
    if (filters.country) {
      clauses.push('country = @country');
      params.country = filters.country;
    }
    if (filters.region) {
      clauses.push('region = @region');
      params.region = filters.region;
    }
    if (filters.q) {
      clauses.push(likeAny(['name', 'alias', 'region', 'country']));
      params.q = `%${pythonStrip(filters.q).toLowerCase()}%`;
    }
    return this.listTable('catalog_settlements', clauses, params, page, settlementItem);
  }

  getSettlement(id: number): Row | null {
    const row = this.statement('SELECT * FROM catalog_settlements WHERE id = ? LIMIT 1').get(id) as Row | undefined;
    return row ? settlementItem(row) : null;
  }

  /** `receiver_cursor:*` rows of converter_sync_state; none when the table is missing. */
  listSyncCursors(parserName: string | null): Row[] {
    const table = this.statement("SELECT 1 FROM sqlite_master WHERE type IN ('table', 'view') AND name = 'converter_sync_state'").get();
    if (!table) return [];
    const rows = parserName
      ? this.statement('SELECT "key" AS state_key, value, updated_at FROM converter_sync_state WHERE "key" = ? ORDER BY state_key ASC').all(
          `receiver_cursor:${pythonStrip(parserName).toLowerCase()}`,
        )
      : this.statement(
          `SELECT "key" AS state_key, value, updated_at FROM converter_sync_state WHERE "key" LIKE 'receiver_cursor:%' ORDER BY state_key ASC`,
        ).all();
    return (rows as Row[]).map(cursorItem);
  }

  private listTable(
    table: string,
    clauses: string[],
    params: Record<string, unknown>,
    page: PageRequest,
    serialize: (row: Row) => Row,
  ): ListPage<Row> {
    const where = clauses.length ? `WHERE ${clauses.join(' AND ')}` : '';
    const total = this.statement(`SELECT COUNT(*) AS n FROM ${table} ${where}`).get(params) as { n: number };
    const rows = this.statement(
      `SELECT * FROM ${table} ${where} ORDER BY ${timeKeySql('updated_at')} DESC, id ASC LIMIT @limit OFFSET @offset`,
    ).all({ ...params, limit: page.limit, offset: page.offset }) as Row[];
    return { items: rows.map(serialize), meta: { limit: page.limit, offset: page.offset, total: Number(total.n) } };
  }
}

/** The public service's `q` over several columns: lower-cased substring, LIKE wildcards left active. */
function likeAny(columns: string[]): string {
  return `trident_like_any(@q, ${columns.join(', ')})`;
}
