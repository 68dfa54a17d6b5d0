// The product list and a single product: the filtered, sorted order of canonical ids is computed once per
// filter and sort and kept for the pages that follow, until the database file changes.
import {
  assembleProductItems,
  productOrderSql,
  productRowsSql,
  productsWhere,
  serviceParsersSql,
  type ProductFilters,
  type ProductItem,
  type ProductRow,
  type ProductSort,
  type WhereClause,
} from '../products.js';
import type { Row } from '../serialize.js';
import { safeStr } from '../values.js';
import type { ListPage, PageRequest, Prepare } from './query-types.js';

/** How many product orders (every id of a filtered, sorted list) are kept for the pages that follow. */
const ORDER_CACHE_ENTRIES = 6;

interface ProductOrder {
  ids: string[];
  /** canonical id → the service's GROUP_CONCAT(DISTINCT parser_name) for it. */
  parsersCsv: Map<string, unknown>;
}

export class ProductQueries {
  /** Filter + sort → every matching product in order; dropped whenever the file changes. */
  private readonly orders = new Map<string, ProductOrder>();
  private ordersVersion: unknown = null;

  constructor(private readonly statement: Prepare) {}

  close(): void {
    this.orders.clear();
  }

  listProducts(filters: ProductFilters, sort: ProductSort, page: PageRequest): ListPage<ProductItem> {
    const where = productsWhere(filters);
    const order = this.productOrder(where, sort);
    const start = page.offset > BigInt(order.ids.length) ? order.ids.length : Number(page.offset);
    const ids = order.ids.slice(start, start + page.limit);
    return {
      items: this.productItems(ids, where, order.parsersCsv),
      meta: { limit: page.limit, offset: page.offset, total: order.ids.length },
    };
  }

  /** The service's list query limited to one product (`parsers` as that query gives them). */
  getProduct(canonicalProductId: string): ProductItem | null {
    const where = productsWhere({ canonicalProductId });
    return this.productItems([canonicalProductId], where, this.parsersCsv(where))[0] ?? null;
  }

  /** Known as a current row or in the history. */
  hasCanonical(canonicalProductId: string): boolean {
    if (this.statement('SELECT 1 FROM catalog_products WHERE canonical_product_id = ? LIMIT 1').get(canonicalProductId)) return true;
    return Boolean(
      this.statement('SELECT 1 FROM catalog_product_snapshots WHERE canonical_product_id = ? LIMIT 1').get(canonicalProductId),
    );
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
    const rows = this.statement(
      `
      SELECT product_id, value FROM catalog_product_assets
      WHERE asset_kind = 'image_url' AND sort_order = 0 AND product_id IN (SELECT value FROM json_each(?))`,
    ).all(JSON.stringify(productIds)) as Row[];
    for (const row of rows) {
      const url = safeStr(row.value);
      if (url !== null) out.set(Number(row.product_id), url);
    }
    return out;
  }
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
