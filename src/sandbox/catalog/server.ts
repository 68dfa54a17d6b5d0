// The sandbox catalog service: the public read-only catalog API (a FastAPI service) over a SQLite database in
// the converter's schema. Parameter problems are answered before the handler's own checks, in FastAPI's order
// and shapes.
import { CatalogDb } from './db/catalog-db.js';
import type { CommonCount } from './db/count-queries.js';
import { SNAPSHOT_SORTS, SOURCE_SORTS, type SnapshotSort, type SourceSort } from './db/source-queries.js';
import { buildSeries, DYNAMICS_INTERVALS, isDynamicsField, isDynamicsInterval, MAX_DYNAMICS_POINTS, pointCount } from './dynamics.js';
import { ParamReader } from './params.js';
import { PRODUCT_SORTS, type ProductSort } from './products.js';
import { createRouter, type RouteContext } from './router.js';
import { formatIsoZ, IsoDateTimeError, parseRequestDateTime, type Instant } from './time.js';
import { normalizeTokens, pythonStrip } from './values.js';
import { startServer, type Handler, type RunningServer, type SandboxResponse } from '../http/server.js';

export { CatalogDbError } from './db/catalog-db.js';

export interface CatalogSandboxOptions {
  host?: string;
  port?: number;
  dbFile: string;
}

export interface CatalogSandbox {
  /** Origin of the service, without a base path. */
  url: string;
  server: RunningServer;
  close(): Promise<void>;
}

/** Opens the database (rejecting with CatalogDbError when it is not a catalog) and starts listening. */
export async function startCatalogSandbox(options: CatalogSandboxOptions): Promise<CatalogSandbox> {
  const db = CatalogDb.open(options.dbFile);
  let server: RunningServer;
  try {
    server = await startServer({ host: options.host ?? '127.0.0.1', port: options.port, handler: catalogHandler(db) });
  } catch (error) {
    db.close();
    throw error;
  }
  return {
    url: server.origin,
    server,
    close: async () => {
      await server.close();
      db.close();
    },
  };
}

// A bigint (an echoed offset) is written as the exact integer it holds: marked while stringifying, then unquoted.
const BIGINT_MARK = '\u0000bigint:';
const MARKED_BIGINT = /"\\u0000bigint:(-?\d+)"/g;

/** A JSON answer as the service writes it. */
function json(status: number, body: unknown): SandboxResponse {
  const text = JSON.stringify(body, (_key, value: unknown) => (typeof value === 'bigint' ? `${BIGINT_MARK}${value}` : value));
  return { status, headers: { 'content-type': 'application/json' }, body: text.replace(MARKED_BIGINT, '$1') };
}

const detail = (status: number, message: string): SandboxResponse => json(status, { detail: message });
const PAGE = { limit: { default: 20, ge: 1, le: 100 }, offset: { default: 0, ge: 0 } } as const;

function catalogHandler(db: CatalogDb): Handler {
  const route = createRouter([
    { path: '/healthz', handle: () => healthz(db) },
    { path: '/products', handle: (c) => listProducts(db, c) },
    { path: '/products/count', handle: (c) => countProducts(db, c) },
    { path: '/products/{canonical_product_id}', handle: (c) => getProduct(db, c) },
    { path: '/products/{canonical_product_id}/sources', handle: (c) => listSources(db, c) },
    { path: '/products/{canonical_product_id}/snapshots', handle: (c) => listSnapshots(db, c) },
    { path: '/products/{canonical_product_id}/dynamics', handle: (c) => dynamics(db, c) },
    { path: '/products/common/count', handle: (c) => countCommon(db, c) },
    { path: '/categories', handle: (c) => listCategories(db, c) },
    { path: '/categories/{category_id}', handle: (c) => getCategory(db, c) },
    { path: '/settlements', handle: (c) => listSettlements(db, c) },
    { path: '/settlements/{settlement_id}', handle: (c) => getSettlement(db, c) },
    { path: '/sync/cursors', handle: (c) => syncCursors(db, c) },
  ]);
  return (request) => {
    try {
      return route(request);
    } catch {
      // What uvicorn answers for an unhandled exception.
      return { status: 500, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'Internal Server Error' };
    }
  };
}

function invalid(reader: ParamReader): SandboxResponse | null {
  return reader.issues.length ? json(422, { detail: reader.issues }) : null;
}

function healthz(db: CatalogDb): SandboxResponse {
  try {
    db.healthCheck();
  } catch (error) {
    return detail(503, `catalog_unavailable: ${(error as Error).message}`);
  }
  return json(200, { status: 'ok' });
}

function listProducts(db: CatalogDb, { query }: RouteContext): SandboxResponse {
  const reader = new ParamReader(query);
  const limit = reader.int('limit', PAGE.limit);
  const offset = reader.bigint('offset', PAGE.offset);
  const q = reader.str('q');
  const parserName = reader.str('parser_name');
  const categoryId = reader.int('category_id');
  const settlementId = reader.int('settlement_id');
  const brand = reader.str('brand');
  const promo = reader.bool('promo');
  const isNew = reader.bool('is_new');
  const hit = reader.bool('hit');
  const adult = reader.bool('adult');
  const priceMin = reader.float('price_min');
  const priceMax = reader.float('price_max');
  const sort = reader.str('sort', { default: 'observed_at_desc' })!;
  const problem = invalid(reader);
  if (problem) return problem;
  if (!(PRODUCT_SORTS as readonly string[]).includes(sort)) return detail(400, `unsupported sort: ${sort}`);
  const page = db.products.listProducts(
    { q, parserName, categoryId, settlementId, brand, promo, isNew, hit, adult, priceMin, priceMax },
    sort as ProductSort,
    { limit: limit!, offset: offset! },
  );
  return json(200, page);
}

function countProducts(db: CatalogDb, { query }: RouteContext): SandboxResponse {
  const reader = new ParamReader(query);
  const stores = normalizeTokens(reader.list('store'));
  const regions = normalizeTokens(reader.list('region'));
  return json(200, {
    products_count: db.counts.countProducts(stores, regions),
    stores: stores.length ? stores : null,
    regions: regions.length ? regions : null,
  });
}

function countCommon(db: CatalogDb, { query }: RouteContext): SandboxResponse {
  const reader = new ParamReader(query);
  const scope = pythonStrip(reader.str('scope', { default: 'all_stores' })!).toLowerCase();
  const stores = normalizeTokens(reader.list('store'));
  const regions = normalizeTokens(reader.list('region'));
  if (scope !== 'stores' && scope !== 'regions') return detail(400, 'scope must be one of: stores, regions');
  const byStores = scope === 'stores';
  const { count, required } = byStores ? db.counts.countCommonByStores(stores, regions) : db.counts.countCommonByRegions(regions, stores);
  const answer: CommonCount = {
    scope,
    common_products_count: count,
    required_stores: byStores ? required : null,
    required_regions: byStores ? null : required,
    stores: stores.length ? stores : null,
    regions: regions.length ? regions : null,
  };
  return json(200, answer);
}

function getProduct(db: CatalogDb, { params }: RouteContext): SandboxResponse {
  const item = db.products.getProduct(params.canonical_product_id!);
  return item ? json(200, item) : detail(404, 'product_not_found');
}

function listSources(db: CatalogDb, { query, params }: RouteContext): SandboxResponse {
  const id = params.canonical_product_id!;
  const reader = new ParamReader(query);
  const limit = reader.int('limit', PAGE.limit);
  const offset = reader.bigint('offset', PAGE.offset);
  const sort = reader.str('sort', { default: 'observed_at_desc' })!;
  const problem = invalid(reader);
  if (problem) return problem;
  if (!(SOURCE_SORTS as readonly string[]).includes(sort)) return detail(400, `unsupported sort: ${sort}`);
  const page = db.sources.listSources(id, sort as SourceSort, { limit: limit!, offset: offset! });
  if (page.meta.total === 0 && !db.products.hasCanonical(id)) return detail(404, 'product_not_found');
  return json(200, page);
}

function listSnapshots(db: CatalogDb, { query, params }: RouteContext): SandboxResponse {
  const id = params.canonical_product_id!;
  const reader = new ParamReader(query);
  const limit = reader.int('limit', PAGE.limit);
  const offset = reader.bigint('offset', PAGE.offset);
  const parserName = reader.str('parser_name');
  const sourceId = reader.str('source_id');
  const sort = reader.str('sort', { default: 'observed_at_desc' })!;
  const problem = invalid(reader);
  if (problem) return problem;
  if (!(SNAPSHOT_SORTS as readonly string[]).includes(sort)) return detail(400, `unsupported sort: ${sort}`);
  const page = db.sources.listSnapshots(id, { parserName, sourceId }, sort as SnapshotSort, { limit: limit!, offset: offset! });
  if (page.meta.total === 0 && !db.products.hasCanonical(id)) return detail(404, 'product_not_found');
  return json(200, page);
}

function dynamics(db: CatalogDb, { query, params }: RouteContext): SandboxResponse {
  const id = params.canonical_product_id!;
  const reader = new ParamReader(query);
  const required = { required: true, minLength: 1 } as const;
  const parserName = reader.str('parser_name', required)!;
  const sourceId = reader.str('source_id', required)!;
  const field = reader.str('field', required)!;
  const dateFrom = reader.str('date_from', required)!;
  const dateTo = reader.str('date_to', required)!;
  const interval = reader.str('interval', required)!;
  const problem = invalid(reader);
  if (problem) return problem;

  let from: Instant;
  let to: Instant;
  try {
    from = parseRequestDateTime(dateFrom);
    to = parseRequestDateTime(dateTo);
  } catch (error) {
    if (error instanceof IsoDateTimeError) return detail(422, error.message);
    throw error;
  }
  if (from > to) return detail(422, 'date_from must be <= date_to');
  if (!isDynamicsField(field)) return detail(400, `unsupported field: ${field}`);
  if (!isDynamicsInterval(interval)) return detail(400, `unsupported interval: ${interval}`);
  const step = DYNAMICS_INTERVALS[interval];
  if (pointCount(from, to, step) > MAX_DYNAMICS_POINTS) return detail(400, 'requested range is too large');

  const snapshots = db.sources.sourceCoverage(id, parserName, sourceId, field);
  if (!snapshots.length) return detail(404, 'source not found');
  const series = buildSeries(snapshots, from, to, step);
  return json(200, {
    dates: series.dates,
    values: series.values,
    meta: {
      canonical_product_id: id,
      parser_name: parserName,
      source_id: sourceId,
      field,
      interval,
      date_from: formatIsoZ(from),
      date_to: formatIsoZ(to),
    },
  });
}

function listCategories(db: CatalogDb, { query }: RouteContext): SandboxResponse {
  const reader = new ParamReader(query);
  const limit = reader.int('limit', PAGE.limit);
  const offset = reader.bigint('offset', PAGE.offset);
  const parserName = reader.str('parser_name');
  const depth = reader.int('depth');
  const parentSourceUid = reader.str('parent_source_uid');
  const q = reader.str('q');
  const problem = invalid(reader);
  if (problem) return problem;
  return json(200, db.references.listCategories({ parserName, depth, parentSourceUid, q }, { limit: limit!, offset: offset! }));
}

function getCategory(db: CatalogDb, { query, params }: RouteContext): SandboxResponse {
  const reader = new ParamReader(query, params);
  const id = reader.int('category_id', { source: 'path', required: true });
  const problem = invalid(reader);
  if (problem) return problem;
  const item = db.references.getCategory(id!);
  return item ? json(200, item) : detail(404, 'category_not_found');
}

function listSettlements(db: CatalogDb, { query }: RouteContext): SandboxResponse {
  const reader = new ParamReader(query);
  const limit = reader.int('limit', PAGE.limit);
  const offset = reader.bigint('offset', PAGE.offset);
  const country = reader.str('country');
  const region = reader.str('region');
  const q = reader.str('q');
  const problem = invalid(reader);
  if (problem) return problem;
  return json(200, db.references.listSettlements({ country, region, q }, { limit: limit!, offset: offset! }));
}

function getSettlement(db: CatalogDb, { query, params }: RouteContext): SandboxResponse {
  const reader = new ParamReader(query, params);
  const id = reader.int('settlement_id', { source: 'path', required: true });
  const problem = invalid(reader);
  if (problem) return problem;
  const item = db.references.getSettlement(id!);
  return item ? json(200, item) : detail(404, 'settlement_not_found');
}

function syncCursors(db: CatalogDb, { query }: RouteContext): SandboxResponse {
  const reader = new ParamReader(query);
  const parserName = reader.str('parser_name');
  return json(200, { items: db.references.listSyncCursors(parserName) });
}
