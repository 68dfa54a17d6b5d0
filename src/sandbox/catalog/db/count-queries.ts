// The counts: distinct products of some stores and regions, and the products common to all the stores (or
// all the regions) asked for.
import type { WhereClause } from '../products.js';
import type { Row } from '../serialize.js';
import { unicodeLower } from '../values.js';
import type { Prepare } from './query-types.js';

export interface CommonCount {
  scope: 'stores' | 'regions';
  common_products_count: number;
  required_stores: number | null;
  required_regions: number | null;
  stores: string[] | null;
  regions: string[] | null;
}

export class CountQueries {
  constructor(private readonly statement: Prepare) {}

  /** Distinct products; `stores` and `regions` are normalized tokens (empty = no filter). */
  countProducts(stores: string[], regions: string[]): number {
    const filter = this.storeRegionFilter(stores, regions);
    const row = this.statement(`SELECT COUNT(DISTINCT cp.canonical_product_id) AS n FROM catalog_products cp ${filter.sql}`).get(
      filter.params,
    ) as { n: number };
    return Number(row.n);
  }

  /** Products present in exactly `required` distinct stores (the given ones, else all stores in the data). */
  countCommonByStores(stores: string[], regions: string[]): { count: number; required: number } {
    const filter = this.storeRegionFilter(stores, regions);
    const member = 'LOWER(cp.parser_name)';
    const required = stores.length
      ? stores.length
      : Number(this.statement(`SELECT COUNT(DISTINCT ${member}) FROM catalog_products cp ${filter.sql}`).pluck().get(filter.params));
    return { count: this.countWithMembers(filter, member, required), required };
  }

  /** Products present in exactly `required` distinct regions (the given ones, else all regions in the data). */
  countCommonByRegions(regions: string[], stores: string[]): { count: number; required: number } {
    const keys = this.settlementRegions();
    const wanted = new Set(regions);
    const settlementIds = [...keys].filter(([, key]) => key !== '' && (!regions.length || wanted.has(key))).map(([id]) => id);
    const filter = this.storeRegionFilter(stores, [], settlementIds);
    let required = regions.length;
    if (!required) {
      const present = this.statement(`SELECT DISTINCT cp.settlement_id FROM catalog_products cp ${filter.sql}`)
        .pluck()
        .all(filter.params) as number[];
      required = new Set(present.map((id) => keys.get(Number(id)))).size;
    }
    // The region of a row, looked up by its settlement in a JSON object passed along.
    const member = "json_extract(@region_keys, '$.k' || cp.settlement_id)";
    const regionKeys = JSON.stringify(Object.fromEntries([...keys].map(([id, key]) => [`k${id}`, key])));
    return {
      count: this.countWithMembers({ sql: filter.sql, params: { ...filter.params, region_keys: regionKeys } }, member, required),
      required,
    };
  }

  /** Products whose filtered rows show exactly `required` distinct members (stores or regions). */
  private countWithMembers(filter: WhereClause, member: string, required: number): number {
    if (required <= 0) return 0;
    const sql = `SELECT COUNT(*) FROM (SELECT 1 FROM catalog_products cp ${filter.sql}
      GROUP BY cp.canonical_product_id HAVING COUNT(DISTINCT ${member}) = @required)`;
    return Number(
      this.statement(sql)
        .pluck()
        .get({ ...filter.params, required }),
    );
  }

  /**
   * Rows of the given stores and regions. Tokens are resolved to the stored parser names and settlement ids
   * first, so that the indexes serve the count (LOWER() on every row would not).
   */
  private storeRegionFilter(stores: string[], regions: string[], settlementIds?: number[]): WhereClause {
    const clauses = ['cp.canonical_product_id IS NOT NULL'];
    const params: Record<string, unknown> = {};
    if (stores.length) {
      const wanted = new Set(stores);
      const names = (this.statement('SELECT DISTINCT parser_name FROM catalog_products').pluck().all() as unknown[]).filter(
        (name) => name !== null && wanted.has(unicodeLower(String(name))),
      );
      clauses.push('cp.parser_name IN (SELECT value FROM json_each(@store_names))');
      params.store_names = JSON.stringify(names);
    }
    let ids = settlementIds;
    if (regions.length) {
      const wanted = new Set(regions);
      ids = [...this.settlementRegions()].filter(([, key]) => wanted.has(key)).map(([id]) => id);
    }
    if (ids) {
      clauses.push('cp.settlement_id IN (SELECT value FROM json_each(@settlement_ids))');
      params.settlement_ids = JSON.stringify(ids);
    }
    return { sql: `WHERE ${clauses.join(' AND ')}`, params };
  }

  /** Settlement id → its region as the counts match it: region_normalized, else region, lower-cased. */
  private settlementRegions(): Map<number, string> {
    const rows = this.statement('SELECT id, region_normalized, region FROM catalog_settlements').all() as Row[];
    const out = new Map<number, string>();
    for (const row of rows) out.set(Number(row.id), unicodeLower(String(row.region_normalized ?? row.region ?? '')));
    return out;
  }
}
