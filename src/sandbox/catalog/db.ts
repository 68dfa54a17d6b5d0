// Read-only access to a catalog database in the converter's schema: one connection, prepared statements
// cached by their SQL, and the queries of the public catalog service.
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import {
  assembleProductItems,
  productOrderSql,
  productRowsSql,
  productsWhere,
  serviceParsersSql,
  timeKeySql,
  type ProductFilters,
  type ProductItem,
  type ProductRow,
  type ProductSort,
  type WhereClause,
} from './products.js';
import { categoryItem, cursorItem, settlementItem, snapshotItem, sourceItem, type Row } from './serialize.js';
import type { DynamicsField, SnapshotCoverage } from './dynamics.js';
import { registerCatalogFunctions } from './sql-functions.js';
import { pythonStrip, safeStr, unicodeLower } from './values.js';

export class CatalogDbError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CatalogDbError';
  }
}

export interface ListPage<T> {
  items: T[];
  /** `offset` stays a bigint: the service echoes any 64-bit offset exactly. */
  meta: { limit: number; offset: bigint; total: number };
}

export interface PageRequest {
  limit: number;
  offset: bigint;
}

export const SOURCE_SORTS = ['observed_at_desc', 'observed_at_asc'] as const;
export const SNAPSHOT_SORTS = ['observed_at_desc', 'observed_at_asc'] as const;
export type SourceSort = (typeof SOURCE_SORTS)[number];
export type SnapshotSort = (typeof SNAPSHOT_SORTS)[number];

export interface CommonCount {
  scope: 'stores' | 'regions';
  common_products_count: number;
  required_stores: number | null;
  required_regions: number | null;
  stores: string[] | null;
  regions: string[] | null;
}

/** How many product orders (every id of a filtered, sorted list) are kept for the pages that follow. */
const ORDER_CACHE_ENTRIES = 6;
const STATEMENT_CACHE_ENTRIES = 256;

export class CatalogDb {
  private readonly statements = new Map<string, Database.Statement>();
  /** Filter + sort → every matching product in order; dropped whenever the file changes. */
  private readonly orders = new Map<string, ProductOrder>();
  private ordersVersion: unknown = null;

  private constructor(
    private readonly db: Database.Database,
    readonly file: string,
  ) {}

  /** Opens read-only; the file must exist, be SQLite and hold catalog_products. */
  static open(file: string): CatalogDb {
    if (!existsSync(file)) throw new CatalogDbError(`catalog database not found: ${file}`);
    let db: Database.Database;
    try {
      db = new Database(file, { readonly: true, fileMustExist: true });
    } catch (error) {
      throw new CatalogDbError(`cannot open catalog database ${file}: ${(error as Error).message}`, { cause: error });
    }
    try {
      const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type IN ('table', 'view') AND name = 'catalog_products'").get();
      if (!table) throw new CatalogDbError(`not a catalog database (no catalog_products table): ${file}`);
      registerCatalogFunctions(db);
    } catch (error) {
      db.close();
      if (error instanceof CatalogDbError) throw error;
      throw new CatalogDbError(`not a SQLite catalog database: ${file}: ${(error as Error).message}`, { cause: error });
    }
    return new CatalogDb(db, file);
  }

  close(): void {
    this.statements.clear();
    this.orders.clear();
    this.db.close();
  }

  /** Throws what SQLite says when the catalog cannot be read. */
  healthCheck(): void {
    this.statement('SELECT 1 FROM catalog_products LIMIT 1').get();
  }

  // --- products ---------------------------------------------------------------------------------------

  listProducts(filters: ProductFilters, sort: ProductSort, page: PageRequest): ListPage<ProductItem> {
    const where = productsWhere(filters);
    const order = this.productOrder(where, sort);
    const start = page.offset > BigInt(order.ids.length) ? order.ids.length : Number(page.offset);
    const ids = order.ids.slice(start, start + page.limit);
    return { items: this.productItems(ids, where, order.parsersCsv), meta: { limit: page.limit, offset: page.offset, total: order.ids.length } };
  }

  /** The service's list query limited to one product (`parsers` as that query gives them). */
  getProduct(canonicalProductId: string): ProductItem | null {
    const where = productsWhere({ canonicalProductId });
    return this.productItems([canonicalProductId], where, this.parsersCsv(where))[0] ?? null;
  }

  /** Known as a current row or in the history. */
  hasCanonical(canonicalProductId: string): boolean {
    if (this.statement('SELECT 1 FROM catalog_products WHERE canonical_product_id = ? LIMIT 1').get(canonicalProductId)) return true;
    return Boolean(this.statement('SELECT 1 FROM catalog_product_snapshots WHERE canonical_product_id = ? LIMIT 1').get(canonicalProductId));
  }

  /** Distinct products; `stores` and `regions` are normalized tokens (empty = no filter). */
  countProducts(stores: string[], regions: string[]): number {
    const filter = this.storeRegionFilter(stores, regions);
    const row = this.statement(`SELECT COUNT(DISTINCT cp.canonical_product_id) AS n FROM catalog_products cp ${filter.sql}`).get(filter.params) as { n: number };
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
      const present = this.statement(`SELECT DISTINCT cp.settlement_id FROM catalog_products cp ${filter.sql}`).pluck().all(filter.params) as number[];
      required = new Set(present.map((id) => keys.get(Number(id)))).size;
    }
    // The region of a row, looked up by its settlement in a JSON object passed along.
    const member = "json_extract(@region_keys, '$.k' || cp.settlement_id)";
    const regionKeys = JSON.stringify(Object.fromEntries([...keys].map(([id, key]) => [`k${id}`, key])));
    return { count: this.countWithMembers({ sql: filter.sql, params: { ...filter.params, region_keys: regionKeys } }, member, required), required };
  }

  listSources(canonicalProductId: string, sort: SourceSort, page: PageRequest): ListPage<Row> {
    const total = this.statement('SELECT COUNT(*) AS n FROM catalog_products WHERE canonical_product_id = ?').get(canonicalProductId) as { n: number };
    const direction = sort === 'observed_at_asc' ? 'ASC' : 'DESC';
    const rows = this.statement(`
      SELECT cp.*,
             cc.id AS __cat_id, cc.source_uid AS __cat_source_uid, cc.title AS __cat_title,
             cs.id AS __set_id, cs.name AS __set_name, cs.region AS __set_region, cs.country AS __set_country
      FROM catalog_products cp
      LEFT JOIN catalog_categories cc ON cc.id = cp.primary_category_id
      LEFT JOIN catalog_settlements cs ON cs.id = cp.settlement_id
      WHERE cp.canonical_product_id = @id
      ORDER BY ${timeKeySql('cp.observed_at')} ${direction}, cp.id ASC
      LIMIT @limit OFFSET @offset`).all({ id: canonicalProductId, limit: page.limit, offset: page.offset }) as Row[];
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
    return this.statement(`
      SELECT id, observed_at, valid_from_at, valid_to_at, ${field} AS value
      FROM catalog_product_snapshots
      WHERE canonical_product_id = ? AND parser_name = ? AND source_id = ?`).all(canonicalProductId, parserName, sourceId) as SnapshotCoverage[];
  }

  // --- categories, settlements, cursors -------------------------------------------------------------

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
      : this.statement(`SELECT "key" AS state_key, value, updated_at FROM converter_sync_state WHERE "key" LIKE 'receiver_cursor:%' ORDER BY state_key ASC`).all();
    return (rows as Row[]).map(cursorItem);
  }

  // --- internals -------------------------------------------------------------------------------------

  private statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      if (this.statements.size >= STATEMENT_CACHE_ENTRIES) this.statements.clear();
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** Every canonical id of the filtered list in page order, and their parsers, computed once per filter and sort. */
  private productOrder(where: WhereClause, sort: ProductSort): ProductOrder {
    const version = this.statement('PRAGMA data_version').pluck().get();
    if (version !== this.ordersVersion) {
      this.orders.clear();
      this.ordersVersion = version;
    }
    const key = orderCacheKey(where, sort);
    const cached = this.orders.get(key);
    if (cached) {
      this.orders.delete(key);
      this.orders.set(key, cached);
      return cached;
    }
    const ids = this.statement(productOrderSql(where, sort)).pluck().all(where.params) as string[];
    const order = { ids, parsersCsv: this.parsersCsv(where) };
    if (this.orders.size >= ORDER_CACHE_ENTRIES) this.orders.delete(this.orders.keys().next().value!);
    this.orders.set(key, order);
    return order;
  }

  private parsersCsv(where: WhereClause): Map<string, unknown> {
    const rows = this.statement(serviceParsersSql(where)).raw().all(where.params) as Array<[string, unknown]>;
    return new Map(rows.map(([id, csv]) => [String(id), csv]));
  }

  private productItems(ids: string[], where: WhereClause, parsersCsv: ReadonlyMap<string, unknown>): ProductItem[] {
    if (!ids.length) return [];
    const rows = this.statement(productRowsSql(where)).all({ ...where.params, __ids: JSON.stringify(ids) }) as ProductRow[];
    const assembled = assembleProductItems(ids, rows, parsersCsv);
    const images = this.primaryImageUrls(assembled.map((entry) => entry.representativeId));
    return assembled.map(({ item, representativeId }) => ({ ...item, image_url: images.get(representativeId) ?? null }));
  }

  private primaryImageUrls(productIds: number[]): Map<number, string> {
    const out = new Map<number, string>();
    if (!productIds.length) return out;
    const rows = this.statement(`
      SELECT product_id, value FROM catalog_product_assets
      WHERE asset_kind = 'image_url' AND sort_order = 0 AND product_id IN (SELECT value FROM json_each(?))`).all(JSON.stringify(productIds)) as Row[];
    for (const row of rows) {
      const url = safeStr(row.value);
      if (url !== null) out.set(Number(row.product_id), url);
    }
    return out;
  }

  private imageUrls(productIds: number[]): Map<number, string[]> {
    const out = new Map<number, string[]>();
    if (!productIds.length) return out;
    const rows = this.statement(`
      SELECT product_id, value FROM catalog_product_assets
      WHERE asset_kind = 'image_url' AND product_id IN (SELECT value FROM json_each(?))
      ORDER BY product_id ASC, sort_order ASC`).all(JSON.stringify(productIds)) as Row[];
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

  /** Products whose filtered rows show exactly `required` distinct members (stores or regions). */
  private countWithMembers(filter: WhereClause, member: string, required: number): number {
    if (required <= 0) return 0;
    const sql = `SELECT COUNT(*) FROM (SELECT 1 FROM catalog_products cp ${filter.sql}
      GROUP BY cp.canonical_product_id HAVING COUNT(DISTINCT ${member}) = @required)`;
    return Number(this.statement(sql).pluck().get({ ...filter.params, required }));
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
      const names = (this.statement('SELECT DISTINCT parser_name FROM catalog_products').pluck().all() as unknown[])
        .filter((name) => name !== null && wanted.has(unicodeLower(String(name))));
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

  private listTable(table: string, clauses: string[], params: Record<string, unknown>, page: PageRequest, serialize: (row: Row) => Row): ListPage<Row> {
    const where = clauses.length ? `WHERE ${clauses.join(' AND ')}` : '';
    const total = this.statement(`SELECT COUNT(*) AS n FROM ${table} ${where}`).get(params) as { n: number };
    const rows = this.statement(
      `SELECT * FROM ${table} ${where} ORDER BY ${timeKeySql('updated_at')} DESC, id ASC LIMIT @limit OFFSET @offset`,
    ).all({ ...params, limit: page.limit, offset: page.offset }) as Row[];
    return { items: rows.map(serialize), meta: { limit: page.limit, offset: page.offset, total: Number(total.n) } };
  }
}

interface ProductOrder {
  ids: string[];
  /** canonical id → the service's GROUP_CONCAT(DISTINCT parser_name) for it. */
  parsersCsv: Map<string, unknown>;
}

/**
 * The cache key of a product order: every parameter with its type and exact value. (JSON.stringify would
 * write NaN, Infinity and -Infinity all as null, and one answer would then serve for the others.)
 */
function orderCacheKey(where: WhereClause, sort: ProductSort): string {
  const params = Object.keys(where.params)
    .sort()
    .map((name) => {
      const value = where.params[name];
      return `${name}=${typeof value}:${typeof value === 'number' ? String(value) : JSON.stringify(value)}`;
    });
  return [sort, where.sql, ...params].join('\n');
}

/** The public service's `q` over several columns: lower-cased substring, LIKE wildcards left active. */
function likeAny(columns: string[]): string {
  return `trident_like_any(@q, ${columns.join(', ')})`;
}
