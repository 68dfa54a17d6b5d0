// One product's sources: their current rows (with category, settlement and images) and the history of
// snapshots each source left, which the price dynamics are built from.
import type { DynamicsField, SnapshotCoverage } from '../dynamics.js';
import { timeKeySql } from '../products.js';
import { snapshotItem, sourceItem, type Row } from '../serialize.js';
import { safeStr } from '../values.js';
import type { ListPage, PageRequest, Prepare } from './query-types.js';

export const SOURCE_SORTS = ['observed_at_desc', 'observed_at_asc'] as const;
export const SNAPSHOT_SORTS = ['observed_at_desc', 'observed_at_asc'] as const;
export type SourceSort = (typeof SOURCE_SORTS)[number];
export type SnapshotSort = (typeof SNAPSHOT_SORTS)[number];

export class SourceQueries {
  constructor(private readonly statement: Prepare) {}

  listSources(canonicalProductId: string, sort: SourceSort, page: PageRequest): ListPage<Row> {
    const total = this.statement('SELECT COUNT(*) AS n FROM catalog_products WHERE canonical_product_id = ?').get(canonicalProductId) as {
      n: number;
    };
    const direction = sort === 'observed_at_asc' ? 'ASC' : 'DESC';
    const rows = this.statement(
      `
      SELECT cp.*,
             cc.id AS __cat_id, cc.source_uid AS __cat_source_uid, cc.title AS __cat_title,
             cs.id AS __set_id, cs.name AS __set_name, cs.region AS __set_region, cs.country AS __set_country
      FROM catalog_products cp
      LEFT JOIN catalog_categories cc ON cc.id = cp.primary_category_id
      LEFT JOIN catalog_settlements cs ON cs.id = cp.settlement_id
      WHERE cp.canonical_product_id = @id
      ORDER BY ${timeKeySql('cp.observed_at')} ${direction}, cp.id ASC
      LIMIT @limit OFFSET @offset`,
    ).all({ id: canonicalProductId, limit: page.limit, offset: page.offset }) as Row[];
    const images = this.imageUrls(rows.map((row) => Number(row.id)));
    return {
      items: rows.map((row) => sourceItem(row, images.get(Number(row.id)) ?? [])),
      meta: { limit: page.limit, offset: page.offset, total: Number(total.n) },
    };
  }

  listSnapshots(
    canonicalProductId: string,
    filters: { parserName: string | null; sourceId: string | null },
    sort: SnapshotSort,
    page: PageRequest,
  ): ListPage<Row> {
    const clauses = ['s.canonical_product_id = @id'];
    const params: Record<string, unknown> = { id: canonicalProductId };
    if (filters.parserName) {
      clauses.push('s.parser_name = @parser_name');
      params.parser_name = filters.parserName;
    }
    if (filters.sourceId) {
      clauses.push('s.source_id = @source_id');
      params.source_id = filters.sourceId;
    }
    const where = `WHERE ${clauses.join(' AND ')}`;
    const order = sort === 'observed_at_asc' ? 'ASC' : 'DESC';
    const total = this.statement(`SELECT COUNT(*) AS n FROM catalog_product_snapshots s ${where}`).get(params) as { n: number };
    const rows = this.statement(
      `SELECT s.* FROM catalog_product_snapshots s ${where} ORDER BY ${timeKeySql('s.observed_at')} ${order}, s.id ${order} LIMIT @limit OFFSET @offset`,
    ).all({ ...params, limit: page.limit, offset: page.offset }) as Row[];
    return { items: rows.map(snapshotItem), meta: { limit: page.limit, offset: page.offset, total: Number(total.n) } };
  }

  /** Every snapshot of one source with the requested field; empty when the source has none. */
  sourceCoverage(canonicalProductId: string, parserName: string, sourceId: string, field: DynamicsField): SnapshotCoverage[] {
    return this.statement(
      `
      SELECT id, observed_at, valid_from_at, valid_to_at, ${field} AS value
      FROM catalog_product_snapshots
      WHERE canonical_product_id = ? AND parser_name = ? AND source_id = ?`,
    ).all(canonicalProductId, parserName, sourceId) as SnapshotCoverage[];
  }

  private imageUrls(productIds: number[]): Map<number, string[]> {
    const out = new Map<number, string[]>();
    if (!productIds.length) return out;
    const rows = this.statement(
      `
      SELECT product_id, value FROM catalog_product_assets
      WHERE asset_kind = 'image_url' AND product_id IN (SELECT value FROM json_each(?))
      ORDER BY product_id ASC, sort_order ASC`,
    ).all(JSON.stringify(productIds)) as Row[];
    for (const row of rows) {
      const url = safeStr(row.value);
      if (url === null) continue;
      const id = Number(row.product_id);
      const list = out.get(id);
      if (list) list.push(url);
      else out.set(id, [url]);
    }
    return out;
  }
}
