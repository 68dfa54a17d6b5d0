// The product list of the catalog service: source rows are filtered first, then grouped by
// canonical_product_id. This file builds the SQL of the filters and of the page order, and assembles list
// items from the filtered rows of the products on a page.
import { dbTimestampToIsoZ, readDbInstant, type Instant } from './time.js';
import { asFloat, pythonStrip, safeStr, splitCsv } from './values.js';
import type { ProductItem } from '../../wire/catalog/answers.js';

export const PRODUCT_SORTS = ['observed_at_desc', 'observed_at_asc', 'price_asc', 'price_desc', 'rating_desc'] as const;
export type ProductSort = (typeof PRODUCT_SORTS)[number];

export interface ProductFilters {
  canonicalProductId?: string | null;
  q?: string | null;
  parserName?: string | null;
  categoryId?: number | null;
  settlementId?: number | null;
  brand?: string | null;
  promo?: boolean | null;
  isNew?: boolean | null;
  hit?: boolean | null;
  adult?: boolean | null;
  priceMin?: number | null;
  priceMax?: number | null;
}

/** A product as the service answers it: the same wire shape the client reads. */
export type { ProductItem };

/** A row of catalog_products as the list query reads it. */
export interface ProductRow {
  id: number;
  canonical_product_id: string;
  title_original: unknown;
  brand: unknown;
  price: unknown;
  discount_price: unknown;
  loyal_price: unknown;
  price_unit: unknown;
  observed_at: unknown;
  updated_at: unknown;
}

const PRODUCT_ROW_COLUMNS =
  'cp.id, cp.canonical_product_id, cp.title_original, cp.brand, cp.price, cp.discount_price, ' +
  'cp.loyal_price, cp.price_unit, cp.observed_at, cp.updated_at';

/**
 * A sortable key for an ISO timestamp stored in any offset or spelling: its UTC time in microseconds (the
 * converter writes microseconds, and rows a microsecond apart must not tie). Unreadable text gives NULL.
 */
export function timeKeySql(column: string): string {
  return `trident_instant(${column})`;
}

const PRICE_SQL = 'COALESCE(cp.discount_price, cp.loyal_price, cp.price)';

export interface WhereClause {
  /** `WHERE ...` or the empty string. */
  sql: string;
  params: Record<string, unknown>;
}

/** The filters of the public service, with its truthiness rules (an empty `q` is no filter). */
export function productsWhere(filters: ProductFilters): WhereClause {
  const clauses: string[] = [];
  const params: Record<string, unknown> = {};
  if (filters.canonicalProductId) {
    clauses.push('cp.canonical_product_id = @canonical_product_id');
    params.canonical_product_id = filters.canonicalProductId;
  }
  if (filters.q) {
    clauses.push('trident_like_any(@q, cp.title_original, cp.title_normalized_no_stopwords, cp.brand)');
    params.q = `%${pythonStrip(filters.q).toLowerCase()}%`;
  }
  if (filters.parserName) {
    clauses.push('cp.parser_name = @parser_name');
    params.parser_name = filters.parserName;
  }
  if (filters.categoryId !== null && filters.categoryId !== undefined) {
    clauses.push('cp.primary_category_id = @category_id');
    params.category_id = filters.categoryId;
  }
  if (filters.settlementId !== null && filters.settlementId !== undefined) {
    clauses.push('cp.settlement_id = @settlement_id');
    params.settlement_id = filters.settlementId;
  }
  if (filters.brand) {
    clauses.push("trident_lower(COALESCE(cp.brand, '')) = @brand");
    params.brand = pythonStrip(filters.brand).toLowerCase();
  }
  for (const [column, value] of [
    ['promo', filters.promo],
    ['is_new', filters.isNew],
    ['hit', filters.hit],
    ['adult', filters.adult],
  ] as const) {
    if (value === null || value === undefined) continue;
    clauses.push(`cp.${column} = @${column}`);
    params[column] = value ? 1 : 0;
  }
  if (filters.priceMin !== null && filters.priceMin !== undefined) {
    clauses.push(`${PRICE_SQL} >= @price_min`);
    params.price_min = filters.priceMin;
  }
  if (filters.priceMax !== null && filters.priceMax !== undefined) {
    clauses.push(`${PRICE_SQL} <= @price_max`);
    params.price_max = filters.priceMax;
  }
  return { sql: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

/** Every product id matching the filters, in the order of the sort (ties by canonical_product_id). */
export function productOrderSql(where: WhereClause, sort: ProductSort): string {
  const group = `FROM catalog_products cp ${where.sql} GROUP BY cp.canonical_product_id`;
  switch (sort) {
    case 'observed_at_desc':
      return `SELECT cp.canonical_product_id AS cid ${group} ORDER BY MAX(${timeKeySql('cp.observed_at')}) DESC, cid ASC`;
    case 'observed_at_asc':
      return `SELECT cp.canonical_product_id AS cid ${group} ORDER BY MAX(${timeKeySql('cp.observed_at')}) ASC, cid ASC`;
    case 'price_asc':
      return `SELECT cp.canonical_product_id AS cid ${group} ORDER BY (MIN(${PRICE_SQL}) IS NULL) ASC, MIN(${PRICE_SQL}) ASC, cid ASC`;
    case 'price_desc':
      return `SELECT cp.canonical_product_id AS cid ${group} ORDER BY (MIN(${PRICE_SQL}) IS NULL) ASC, MIN(${PRICE_SQL}) DESC, cid ASC`;
    case 'rating_desc':
      // The rating of the representative row: latest observed_at, then latest updated_at, then lowest id.
      return `
        WITH ranked AS (
          SELECT cp.canonical_product_id AS cid, cp.rating AS rating,
                 ROW_NUMBER() OVER (
                   PARTITION BY cp.canonical_product_id
                   ORDER BY ${timeKeySql('cp.observed_at')} DESC, ${timeKeySql('cp.updated_at')} DESC, cp.id ASC
                 ) AS rn
          FROM catalog_products cp ${where.sql}
        )
        SELECT cid FROM ranked WHERE rn = 1 ORDER BY (rating IS NULL) ASC, rating DESC, cid ASC`;
  }
}

/**
 * The aggregate of the public service's own product query that gives `parsers`: GROUP_CONCAT(DISTINCT
 * parser_name) lists parsers in the order SQLite reads the grouped rows, which follows whatever index it
 * picks for this filter on this database. Running the same aggregate on the same file gives the same order;
 * sorting could not. The SQLite of the service's Python materializes `filtered` (its query reads it twice)
 * and groups it with a sorter; newer SQLite would stream it from an index instead, so the hint keeps the
 * service's plan. Checked against Python 3.11's sqlite3 running the service's full query: the same lists for
 * all 75951 product groups of a 20000-product seed, unfiltered and filtered.
 */
export function serviceParsersSql(where: WhereClause): string {
  return `
    WITH filtered AS MATERIALIZED (SELECT cp.* FROM catalog_products cp ${where.sql})
    SELECT canonical_product_id AS cid, GROUP_CONCAT(DISTINCT parser_name) AS parsers_csv
    FROM filtered GROUP BY canonical_product_id`;
}

/** The filtered rows of some products (`@__ids` is a JSON array of canonical ids). */
export function productRowsSql(where: WhereClause): string {
  const idFilter = 'cp.canonical_product_id IN (SELECT value FROM json_each(@__ids))';
  const filter = where.sql ? `${where.sql} AND ${idFilter}` : `WHERE ${idFilter}`;
  return `SELECT ${PRODUCT_ROW_COLUMNS} FROM catalog_products cp ${filter} ORDER BY cp.id ASC`;
}

/** A list item and the id of its representative row (whose image the item shows). */
export interface AssembledItem {
  item: ProductItem;
  representativeId: number;
}

/**
 * List items of the given products, in that order, from their filtered rows and their `GROUP_CONCAT`ed
 * parsers; products without rows are left out.
 */
export function assembleProductItems(
  ids: readonly string[],
  rows: readonly ProductRow[],
  parsersCsv: ReadonlyMap<string, unknown>,
): AssembledItem[] {
  const byProduct = new Map<string, ProductRow[]>();
  for (const row of rows) {
    const list = byProduct.get(row.canonical_product_id);
    if (list) list.push(row);
    else byProduct.set(row.canonical_product_id, [row]);
  }
  const out: AssembledItem[] = [];
  for (const id of ids) {
    const group = byProduct.get(id);
    if (group?.length) out.push(groupToItem(id, group, parsersCsv.get(id)));
  }
  return out;
}

function groupToItem(id: string, group: ProductRow[], parsersCsv: unknown): AssembledItem {
  let representative: Ranked | null = null;
  let latest: { instant: Instant; raw: unknown } | null = null;
  let priceFrom: unknown = null;
  for (const row of group) {
    const candidate = { row, observed: readDbInstant(row.observed_at), updated: readDbInstant(row.updated_at) };
    if (!representative || outranks(candidate, representative)) representative = candidate;
    if (candidate.observed !== null && (latest === null || candidate.observed > latest.instant)) {
      latest = { instant: candidate.observed, raw: row.observed_at };
    }
    priceFrom = sqlMin(priceFrom, coalesce(row.discount_price, row.loyal_price, row.price));
  }
  const chosen = representative!.row;
  return {
    representativeId: chosen.id,
    item: {
      canonical_product_id: String(id),
      title: safeStr(chosen.title_original),
      brand: safeStr(chosen.brand),
      price_from: asFloat(priceFrom),
      price_unit: safeStr(chosen.price_unit),
      sources_count: group.length,
      observed_at_latest: latest ? dbTimestampToIsoZ(latest.raw) : null,
      image_url: null,
      parsers: splitCsv(parsersCsv),
    },
  };
}

type Ranked = { row: ProductRow; observed: Instant | null; updated: Instant | null };

/** Latest observed_at, then latest updated_at, then lowest id; an unreadable time ranks lowest. */
function outranks(a: Ranked, b: Ranked): boolean {
  const observed = compareNullable(a.observed, b.observed);
  if (observed !== 0) return observed > 0;
  const updated = compareNullable(a.updated, b.updated);
  if (updated !== 0) return updated > 0;
  return a.row.id < b.row.id;
}

function compareNullable(a: Instant | null, b: Instant | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return a > b ? 1 : a < b ? -1 : 0;
}

function coalesce(...values: unknown[]): unknown {
  for (const value of values) if (value !== null && value !== undefined) return value;
  return null;
}

/** SQLite's MIN(): NULLs ignored, numbers before text. */
function sqlMin(current: unknown, value: unknown): unknown {
  if (value === null || value === undefined) return current;
  if (current === null || current === undefined) return value;
  const currentIsNumber = typeof current === 'number' || typeof current === 'bigint';
  const valueIsNumber = typeof value === 'number' || typeof value === 'bigint';
  if (currentIsNumber && valueIsNumber) return Number(value) < Number(current) ? value : current;
  if (currentIsNumber) return current;
  if (valueIsNumber) return value;
  return String(value) < String(current) ? value : current;
}
