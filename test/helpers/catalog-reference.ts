// An independent model of the public catalog service's routes, written from the service's documented behaviour
// (not from the sandbox): every table is read into memory once, and each answer is computed in plain
// TypeScript. The differential test asks the sandbox and this model the same requests.
//
// Where its documentation leaves a detail open, the choice is what the public service's code does (noted where
// it is made): the snapshot order (observed_at, then id in the same direction), the fields of a source item,
// and the order of `parsers`, which is whatever order the service's SQLite reads the filtered rows in.
import { openSqlite } from '../../src/sandbox/catalog/sqlite/open.js';
import type { SqliteDatabase } from '../../src/sandbox/catalog/sqlite/types.js';

type Row = Record<string, unknown>;
export interface ReferenceAnswer {
  status: number;
  body: unknown;
}

const HOUR_US = 3_600_000_000n;
const INTERVALS: Record<string, bigint> = { '1h': HOUR_US, '6h': 6n * HOUR_US, '1d': 24n * HOUR_US, '7d': 168n * HOUR_US };
const FIELDS = ['price', 'discount_price', 'loyal_price', 'available_count'];
const INT64_MAX = 9_223_372_036_854_775_807n;

// --- values ---------------------------------------------------------------------------------------------

const str = (value: unknown): string | null => {
  if (value === null || value === undefined) return null;
  const text = String(value).replace(/^[\s\x1c-\x1f\x85]+|[\s\x1c-\x1f\x85]+$/gu, '');
  return text === '' ? null : text;
};
const num = (value: unknown): number | null => {
  if (value === null || value === undefined || typeof value === 'boolean') return null;
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  const text = str(value)?.replaceAll(',', '.');
  if (!text || !/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text)) return null;
  return Number(text);
};
const int = (value: unknown): number | null => {
  if (value === null || value === undefined || typeof value === 'boolean') return null;
  if (typeof value === 'number') return Number.isInteger(value) ? value : null;
  if (typeof value === 'bigint') return Number(value);
  const text = str(value);
  return text !== null && /^[+-]?\d+$/.test(text) ? Number(text) : null;
};
const bool = (value: unknown): boolean | null => {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'bigint') return Number(value) !== 0;
  const text = String(value).trim().toLowerCase();
  if (['1', 'true', 'yes', 'y', 'on'].includes(text)) return true;
  if (['0', 'false', 'no', 'n', 'off'].includes(text)) return false;
  return null;
};

/** A stored time: ISO 8601 with `T` or a space, optional fraction, an offset or none (then UTC). */
function storedTime(value: unknown): bigint | null {
  const text = str(value);
  if (text === null) return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6})\d*)?)?)?(Z|[+-]\d{2}:?\d{2})?$/.exec(text);
  if (!m) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0', f = '', zone] = m;
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  let us = BigInt(ms) * 1000n + BigInt(f.padEnd(6, '0') || '0');
  if (zone && zone !== 'Z') {
    const sign = zone.startsWith('-') ? -1n : 1n;
    const digits = zone.slice(1).replace(':', '');
    us -= sign * (BigInt(Number(digits.slice(0, 2)) * 3600 + Number(digits.slice(2)) * 60) * 1_000_000n);
  }
  return us;
}

/** Python's isoformat of a UTC time with `Z`: microseconds only when there are some. */
export function isoZ(us: bigint): string {
  const seconds = us / 1_000_000n - (us % 1_000_000n < 0n ? 1n : 0n);
  const micros = Number(us - seconds * 1_000_000n);
  const base = new Date(Number(seconds) * 1000).toISOString().slice(0, 19);
  return `${base}${micros ? `.${String(micros).padStart(6, '0')}` : ''}Z`;
}

const timeText = (value: unknown): string | null => {
  const us = storedTime(value);
  return us === null ? null : isoZ(us);
};

/** Trimmed, lower-cased, de-duplicated, empty ones dropped. */
function tokens(values: string[]): string[] {
  const out: string[] = [];
  for (const value of values) {
    const token = str(value)?.toLowerCase();
    if (token && !out.includes(token)) out.push(token);
  }
  return out;
}

/**
 * `LOWER(x) LIKE %q%` with the service's q, folding every script's case: the sandbox differs here on purpose from
 * the public service over SQLite, whose LOWER() folds ASCII only, for the catalog is Russian.
 */
function likeFilter(q: string): (value: unknown) => boolean {
  const pattern = `%${q.trim().toLowerCase()}%`;
  let source = '';
  for (const char of pattern) source += char === '%' ? '.*' : char === '_' ? '.' : char.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
  const regex = new RegExp(`^${source}$`, 'su');
  return (value) => regex.test(value === null || value === undefined ? '' : String(value).toLowerCase());
}

const compareText = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

// --- query parameters, as FastAPI validates them --------------------------------------------------------

type Issue = { type: string; loc: [string, string]; msg: string; input: unknown; ctx?: Row };

class Params {
  readonly issues: Issue[] = [];
  constructor(
    private readonly query: URLSearchParams,
    private readonly path: Record<string, string> = {},
  ) {}

  private raw(name: string, where: 'query' | 'path'): string | undefined {
    if (where === 'path') return this.path[name];
    const all = this.query.getAll(name);
    return all.length ? all[all.length - 1] : undefined;
  }

  private fail(type: string, where: 'query' | 'path', name: string, msg: string, input: unknown, ctx?: Row): null {
    this.issues.push(ctx ? { type, loc: [where, name], msg, input, ctx } : { type, loc: [where, name], msg, input });
    return null;
  }

  int(name: string, opts: { fallback?: bigint | null; ge?: number; le?: number; where?: 'query' | 'path' } = {}): bigint | null {
    const where = opts.where ?? 'query';
    const raw = this.raw(name, where);
    if (raw === undefined) return opts.fallback ?? null;
    const m = /^\s*([+-]?)(\d+)(?:\.0+)?\s*$/.exec(raw);
    if (!m) return this.fail('int_parsing', where, name, 'Input should be a valid integer, unable to parse string as an integer', raw);
    const value = BigInt(`${m[1]}${m[2]}`);
    if (value > INT64_MAX || value < -INT64_MAX - 1n)
      return this.fail('int_parsing_size', where, name, 'Unable to parse input string as an integer, exceeded maximum size', raw);
    if (opts.ge !== undefined && value < BigInt(opts.ge))
      return this.fail('greater_than_equal', where, name, `Input should be greater than or equal to ${opts.ge}`, raw, { ge: opts.ge });
    if (opts.le !== undefined && value > BigInt(opts.le))
      return this.fail('less_than_equal', where, name, `Input should be less than or equal to ${opts.le}`, raw, { le: opts.le });
    return value;
  }

  float(name: string): number | null {
    const raw = this.raw(name, 'query');
    if (raw === undefined) return null;
    const text = raw.trim().toLowerCase();
    if (/^[+-]?(inf|infinity)$/.test(text)) return text.startsWith('-') ? -Infinity : Infinity;
    if (/^[+-]?nan$/.test(text)) return Number.NaN;
    if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/.test(text))
      return this.fail('float_parsing', 'query', name, 'Input should be a valid number, unable to parse string as a number', raw);
    return Number(text);
  }

  bool(name: string): boolean | null {
    const raw = this.raw(name, 'query');
    if (raw === undefined) return null;
    const text = raw.toLowerCase();
    if (['0', 'f', 'n', 'no', 'off', 'false'].includes(text)) return false;
    if (['1', 't', 'y', 'on', 'yes', 'true'].includes(text)) return true;
    return this.fail('bool_parsing', 'query', name, 'Input should be a valid boolean, unable to interpret input', raw);
  }

  str(name: string, opts: { fallback?: string; required?: boolean } = {}): string | null {
    const raw = this.raw(name, 'query');
    if (raw === undefined) return opts.required ? this.fail('missing', 'query', name, 'Field required', null) : (opts.fallback ?? null);
    if (opts.required && raw.length === 0)
      return this.fail('string_too_short', 'query', name, 'String should have at least 1 character', raw, { min_length: 1 });
    return raw;
  }

  list(name: string): string[] {
    return this.query.getAll(name);
  }
}

const detail = (status: number, message: string): ReferenceAnswer => ({ status, body: { detail: message } });
const page = (params: Params) => ({
  limit: params.int('limit', { fallback: 20n, ge: 1, le: 100 }),
  offset: params.int('offset', { fallback: 0n, ge: 0 }),
});
const slice = <T>(items: T[], limit: bigint, offset: bigint): T[] =>
  offset >= BigInt(items.length) ? [] : items.slice(Number(offset), Number(offset) + Number(limit));

// --- the model ------------------------------------------------------------------------------------------

export class CatalogReference {
  private readonly products: Row[];
  private readonly snapshots: Row[];
  private readonly categories: Row[];
  private readonly settlements: Map<number, Row>;
  private readonly assets: Row[];
  private readonly cursors: Row[] | null;
  private readonly db: SqliteDatabase;
  /** Scans already asked for: the rows of a read-only file do not change. */
  private readonly scans = new Map<string, Row[]>();
  /** Product row id → its image_url assets. */
  private readonly images = new Map<number, Row[]>();

  constructor(file: string) {
    this.db = openSqlite(file, { readonly: true });
    const all = (sql: string) => this.db.prepare(sql).all() as Row[];
    this.products = all('SELECT * FROM catalog_products');
    this.snapshots = all('SELECT * FROM catalog_product_snapshots');
    this.categories = all('SELECT * FROM catalog_categories');
    this.settlements = new Map(all('SELECT * FROM catalog_settlements').map((row) => [Number(row.id), row]));
    this.assets = all("SELECT * FROM catalog_product_assets WHERE asset_kind = 'image_url'");
    for (const asset of this.assets) {
      const id = Number(asset.product_id);
      this.images.set(id, [...(this.images.get(id) ?? []), asset]);
    }
    const hasCursors = this.db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'converter_sync_state'").get();
    this.cursors = hasCursors ? all('SELECT * FROM converter_sync_state') : null;
  }

  close(): void {
    this.db.close();
  }

  answer(path: string, query: URLSearchParams): ReferenceAnswer {
    const parts = path
      .split('/')
      .slice(1)
      .map((part) => decodeURIComponent(part));
    const [a, b, c] = parts;
    if (parts.length === 1 && a === 'healthz') return { status: 200, body: { status: 'ok' } };
    if (parts.length === 1 && a === 'products') return this.productList(query);
    if (parts.length === 2 && a === 'products' && b === 'count') return this.count(query);
    if (parts.length === 3 && a === 'products' && b === 'common' && c === 'count') return this.commonCount(query);
    if (parts.length === 2 && a === 'products' && b) return this.product(b);
    if (parts.length === 3 && a === 'products' && b && c === 'sources') return this.sources(b, query);
    if (parts.length === 3 && a === 'products' && b && c === 'snapshots') return this.snapshotList(b, query);
    if (parts.length === 3 && a === 'products' && b && c === 'dynamics') return this.dynamics(b, query);
    if (parts.length === 1 && a === 'categories') return this.table(query, 'categories');
    if (parts.length === 2 && a === 'categories') return this.one(b!, 'category_id', this.categories, categoryItem, 'category_not_found');
    if (parts.length === 1 && a === 'settlements') return this.table(query, 'settlements');
    if (parts.length === 2 && a === 'settlements')
      return this.one(b!, 'settlement_id', [...this.settlements.values()], settlementItem, 'settlement_not_found');
    if (parts.length === 2 && a === 'sync' && b === 'cursors') return this.syncCursors(query);
    return { status: 404, body: { detail: 'Not Found' } };
  }

  // /products ------------------------------------------------------------------------------------------

  private productList(query: URLSearchParams): ReferenceAnswer {
    const p = new Params(query);
    const { limit, offset } = page(p);
    const filters = {
      q: p.str('q'),
      parser_name: p.str('parser_name'),
      category_id: p.int('category_id'),
      settlement_id: p.int('settlement_id'),
      brand: p.str('brand'),
      promo: p.bool('promo'),
      is_new: p.bool('is_new'),
      hit: p.bool('hit'),
      adult: p.bool('adult'),
      price_min: p.float('price_min'),
      price_max: p.float('price_max'),
    };
    const sort = p.str('sort', { fallback: 'observed_at_desc' })!;
    if (p.issues.length) return { status: 422, body: { detail: p.issues } };
    const sorts = ['observed_at_desc', 'observed_at_asc', 'price_asc', 'price_desc', 'rating_desc'];
    if (!sorts.includes(sort)) return detail(400, `unsupported sort: ${sort}`);
    const groups = this.groups(filters);
    const items = [...groups.values()].sort(productOrder(sort));
    return {
      status: 200,
      body: {
        items: slice(items, limit!, offset!).map((g) => g.item),
        meta: { limit: Number(limit), offset: offsetJson(offset!), total: items.length },
      },
    };
  }

  private product(id: string): ReferenceAnswer {
    const group = this.groups({ canonical_product_id: id }).get(id);
    return group ? { status: 200, body: group.item } : detail(404, 'product_not_found');
  }

  /** Rows filtered, then grouped by product into list items. */
  private groups(f: Record<string, unknown>): Map<string, ProductGroup> {
    const q = f.q ? likeFilter(String(f.q)) : null;
    const brand = f.brand ? String(f.brand).trim().toLowerCase() : null;
    const price = (row: Row) => num(row.discount_price ?? row.loyal_price ?? row.price);
    const keep = (row: Row) => {
      if (f.canonical_product_id && row.canonical_product_id !== f.canonical_product_id) return false;
      if (q && !(q(row.title_original) || q(row.title_normalized_no_stopwords) || q(row.brand))) return false;
      if (f.parser_name && row.parser_name !== f.parser_name) return false;
      for (const [name, column] of [
        ['category_id', 'primary_category_id'],
        ['settlement_id', 'settlement_id'],
      ] as const) {
        const wanted = f[name] as bigint | null | undefined;
        if (wanted !== null && wanted !== undefined && (row[column] === null || BigInt(Number(row[column])) !== wanted)) return false;
      }
      if (brand !== null && String(row.brand ?? '').toLowerCase() !== brand) return false;
      for (const flag of ['promo', 'is_new', 'hit', 'adult']) {
        if (f[flag] !== null && f[flag] !== undefined && (row[flag] === null || Number(row[flag]) !== (f[flag] ? 1 : 0))) return false;
      }
      const value = price(row);
      if (f.price_min !== null && f.price_min !== undefined && !(value !== null && value >= (f.price_min as number))) return false;
      if (f.price_max !== null && f.price_max !== undefined && !(value !== null && value <= (f.price_max as number))) return false;
      return true;
    };
    const rows = this.scanOrder(f).filter(keep);
    const groups = new Map<string, Row[]>();
    for (const row of rows) {
      const id = String(row.canonical_product_id);
      const group = groups.get(id);
      if (group) group.push(row);
      else groups.set(id, [row]);
    }
    const out = new Map<string, ProductGroup>();
    for (const [id, group] of groups) out.set(id, this.group(id, group, price));
    return out;
  }

  /**
   * The product rows in the order the service's SQLite reads them for this filter: it materializes the
   * filtered rows (a scan by rowid, or by the index an equality filter picks) and groups them keeping that
   * order, so GROUP_CONCAT(DISTINCT parser_name) lists parsers in it. Asking SQLite for the same scan is
   * the only way to know the index it picks.
   */
  private scanOrder(f: Record<string, unknown>): Row[] {
    const clauses: string[] = [];
    const params: Row = {};
    for (const [name, column] of [
      ['canonical_product_id', 'canonical_product_id'],
      ['parser_name', 'parser_name'],
      ['category_id', 'primary_category_id'],
      ['settlement_id', 'settlement_id'],
    ] as const) {
      const value = f[name];
      if (value === null || value === undefined || value === '') continue;
      clauses.push(`cp.${column} = @${name}`);
      params[name] = value;
    }
    const sql = `SELECT cp.* FROM catalog_products cp ${clauses.length ? `WHERE ${clauses.join(' AND ')}` : ''}`;
    const key = `${sql}\n${JSON.stringify(params, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))}`;
    let rows = this.scans.get(key);
    if (!rows) {
      rows = this.db.prepare(sql).all(params) as Row[];
      this.scans.set(key, rows);
    }
    return rows;
  }

  private group(id: string, rows: Row[], price: (row: Row) => number | null): ProductGroup {
    const rank = (row: Row) => [storedTime(row.observed_at), storedTime(row.updated_at), -Number(row.id)] as const;
    let best = rows[0]!;
    for (const row of rows.slice(1)) if (outranks(rank(row), rank(best))) best = row;
    const latest = rows
      .map((row) => storedTime(row.observed_at))
      .reduce<bigint | null>((max, t) => (t !== null && (max === null || t > max) ? t : max), null);
    const prices = rows.map(price).filter((value): value is number => value !== null);
    const parsers: string[] = [];
    for (const row of rows) {
      const name = row.parser_name === null ? null : String(row.parser_name).trim();
      if (name && !parsers.some((seen) => seen.toLowerCase() === name.toLowerCase())) parsers.push(name);
    }
    const image = this.images.get(Number(best.id))?.find((asset) => Number(asset.sort_order) === 0);
    return {
      latest,
      priceFrom: prices.length ? Math.min(...prices) : null,
      rating: num(best.rating),
      item: {
        canonical_product_id: id,
        title: str(best.title_original),
        brand: str(best.brand),
        price_from: prices.length ? Math.min(...prices) : null,
        price_unit: str(best.price_unit),
        sources_count: rows.length,
        observed_at_latest: latest === null ? null : isoZ(latest),
        image_url: image ? str(image.value) : null,
        parsers,
      },
    };
  }

  // counts ---------------------------------------------------------------------------------------------

  private regionOf(settlementId: unknown): string | null {
    if (settlementId === null || settlementId === undefined) return null;
    const settlement = this.settlements.get(Number(settlementId));
    if (!settlement) return null;
    return String(settlement.region_normalized ?? settlement.region ?? '').toLowerCase();
  }

  private count(query: URLSearchParams): ReferenceAnswer {
    const p = new Params(query);
    const stores = tokens(p.list('store'));
    const regions = tokens(p.list('region'));
    const ids = new Set(this.storeRegionRows(stores, regions).map((row) => row.canonical_product_id));
    return {
      status: 200,
      body: { products_count: ids.size, stores: stores.length ? stores : null, regions: regions.length ? regions : null },
    };
  }

  private storeRegionRows(stores: string[], regions: string[]): Row[] {
    return this.products.filter(
      (row) =>
        row.canonical_product_id !== null &&
        (!stores.length || stores.includes(String(row.parser_name).toLowerCase())) &&
        (!regions.length || regions.includes(this.regionOf(row.settlement_id) ?? '\u0000')),
    );
  }

  private commonCount(query: URLSearchParams): ReferenceAnswer {
    const p = new Params(query);
    const scope = (p.str('scope') ?? '').trim().toLowerCase();
    const stores = tokens(p.list('store'));
    const regions = tokens(p.list('region'));
    if (scope !== 'stores' && scope !== 'regions') return detail(400, 'scope must be one of: stores, regions');
    let rows: Row[];
    let member: (row: Row) => string;
    let required: number;
    if (scope === 'stores') {
      rows = this.storeRegionRows(stores, regions);
      member = (row) => String(row.parser_name).toLowerCase();
      required = stores.length || new Set(rows.map(member)).size;
    } else {
      rows = this.storeRegionRows(stores, []).filter((row) => {
        const region = this.regionOf(row.settlement_id);
        return region !== null && region !== '' && (!regions.length || regions.includes(region));
      });
      member = (row) => this.regionOf(row.settlement_id)!;
      required = regions.length || new Set(rows.map(member)).size;
    }
    const members = new Map<string, Set<string>>();
    for (const row of rows) {
      const id = String(row.canonical_product_id);
      members.set(id, (members.get(id) ?? new Set()).add(member(row)));
    }
    const count = required > 0 ? [...members.values()].filter((set) => set.size === required).length : 0;
    return {
      status: 200,
      body: {
        scope,
        common_products_count: count,
        required_stores: scope === 'stores' ? required : null,
        required_regions: scope === 'regions' ? required : null,
        stores: stores.length ? stores : null,
        regions: regions.length ? regions : null,
      },
    };
  }

  // sources, snapshots, dynamics ------------------------------------------------------------------------

  private known(id: string): boolean {
    return this.products.some((row) => row.canonical_product_id === id) || this.snapshots.some((row) => row.canonical_product_id === id);
  }

  private sources(id: string, query: URLSearchParams): ReferenceAnswer {
    const p = new Params(query);
    const { limit, offset } = page(p);
    const sort = p.str('sort', { fallback: 'observed_at_desc' })!;
    if (p.issues.length) return { status: 422, body: { detail: p.issues } };
    if (sort !== 'observed_at_desc' && sort !== 'observed_at_asc') return detail(400, `unsupported sort: ${sort}`);
    const rows = this.products.filter((row) => row.canonical_product_id === id);
    const sign = sort === 'observed_at_asc' ? 1 : -1;
    rows.sort((x, y) => sign * compareTimes(storedTime(x.observed_at), storedTime(y.observed_at)) || Number(x.id) - Number(y.id));
    if (!rows.length && !this.known(id)) return detail(404, 'product_not_found');
    return {
      status: 200,
      body: {
        items: slice(rows, limit!, offset!).map((row) => this.sourceItem(row)),
        meta: { limit: Number(limit), offset: offsetJson(offset!), total: rows.length },
      },
    };
  }

  /** The fields the public service shows of a source (the documents say "the full row"; it shows these). */
  private sourceItem(row: Row): Row {
    const category =
      row.primary_category_id === null ? undefined : this.categories.find((c) => Number(c.id) === Number(row.primary_category_id));
    const settlement = row.settlement_id === null ? undefined : this.settlements.get(Number(row.settlement_id));
    const images = [...(this.images.get(Number(row.id)) ?? [])]
      .sort((x, y) => Number(x.sort_order) - Number(y.sort_order))
      .map((asset) => str(asset.value))
      .filter((value) => value !== null);
    const out: Row = { id: int(row.id), canonical_product_id: String(row.canonical_product_id) };
    for (const name of ['parser_name', 'source_id', 'plu', 'sku', 'title_original', 'title_normalized_no_stopwords', 'brand'])
      out[name] = str(row[name]);
    for (const name of ['price', 'discount_price', 'loyal_price']) out[name] = num(row[name]);
    Object.assign(out, {
      price_unit: str(row.price_unit),
      rating: num(row.rating),
      reviews_count: int(row.reviews_count),
      promo: bool(row.promo),
      is_new: bool(row.is_new),
      hit: bool(row.hit),
      adult: bool(row.adult),
      unit: str(row.unit),
      available_count: num(row.available_count),
      package_quantity: num(row.package_quantity),
      package_unit: str(row.package_unit),
      composition_original: str(row.composition_original),
      composition_normalized: str(row.composition_normalized),
      observed_at: timeText(row.observed_at),
      image_urls: images,
      primary_category: category ? { id: int(category.id), source_uid: str(category.source_uid), title: str(category.title) } : null,
      settlement: settlement
        ? { id: int(settlement.id), name: str(settlement.name), region: str(settlement.region), country: str(settlement.country) }
        : null,
    });
    return out;
  }

  private snapshotList(id: string, query: URLSearchParams): ReferenceAnswer {
    const p = new Params(query);
    const { limit, offset } = page(p);
    const parser = p.str('parser_name');
    const source = p.str('source_id');
    const sort = p.str('sort', { fallback: 'observed_at_desc' })!;
    if (p.issues.length) return { status: 422, body: { detail: p.issues } };
    if (sort !== 'observed_at_desc' && sort !== 'observed_at_asc') return detail(400, `unsupported sort: ${sort}`);
    const rows = this.snapshots.filter(
      (row) => row.canonical_product_id === id && (!parser || row.parser_name === parser) && (!source || row.source_id === source),
    );
    // The service: observed_at, then id, both in the direction asked.
    const sign = sort === 'observed_at_asc' ? 1 : -1;
    rows.sort((x, y) => sign * (compareTimes(storedTime(x.observed_at), storedTime(y.observed_at)) || Number(x.id) - Number(y.id)));
    if (!rows.length && !this.known(id)) return detail(404, 'product_not_found');
    return {
      status: 200,
      body: {
        items: slice(rows, limit!, offset!).map(snapshotItem),
        meta: { limit: Number(limit), offset: offsetJson(offset!), total: rows.length },
      },
    };
  }

  private dynamics(id: string, query: URLSearchParams): ReferenceAnswer {
    const p = new Params(query);
    const names = ['parser_name', 'source_id', 'field', 'date_from', 'date_to', 'interval'];
    const [parser, source, field, dateFrom, dateTo, interval] = names.map((name) => p.str(name, { required: true }));
    if (p.issues.length) return { status: 422, body: { detail: p.issues } };
    const from = requestTime(dateFrom!);
    if (typeof from === 'string') return detail(422, from);
    const to = requestTime(dateTo!);
    if (typeof to === 'string') return detail(422, to);
    if (from > to) return detail(422, 'date_from must be <= date_to');
    if (!FIELDS.includes(field!)) return detail(400, `unsupported field: ${field}`);
    const step = INTERVALS[interval!];
    if (step === undefined) return detail(400, `unsupported interval: ${interval}`);
    const points = Number((to - from) / step) + 1;
    if (points > 20_000) return detail(400, 'requested range is too large');
    const rows = this.snapshots.filter((row) => row.canonical_product_id === id && row.parser_name === parser && row.source_id === source);
    if (!rows.length) return detail(404, 'source not found');
    const winners: Array<{ observed: bigint; id: number; value: number | null } | undefined> = new Array(points);
    for (const row of rows) {
      const observed = storedTime(row.observed_at)!;
      const start = storedTime(row.valid_from_at ?? row.observed_at)!;
      const end = storedTime(row.valid_to_at ?? row.observed_at)!;
      const lo = start > from ? start : from;
      const hi = end < to ? end : to;
      if (hi < lo) continue;
      const first = Number((lo - from) / step);
      const last = Math.min(points - 1, Number((hi - from) / step));
      for (let k = first; k <= last; k += 1) {
        const current = winners[k];
        if (!current || observed > current.observed || (observed === current.observed && Number(row.id) > current.id)) {
          winners[k] = { observed, id: Number(row.id), value: num(row[field!]) };
        }
      }
    }
    const dates = Array.from({ length: points }, (_, k) => isoZ(from + BigInt(k) * step));
    return {
      status: 200,
      body: {
        dates,
        values: Array.from({ length: points }, (_, k) => winners[k]?.value ?? null),
        meta: {
          canonical_product_id: id,
          parser_name: parser,
          source_id: source,
          field,
          interval,
          date_from: isoZ(from),
          date_to: isoZ(to),
        },
      },
    };
  }

  // categories, settlements, cursors ---------------------------------------------------------------------

  private table(query: URLSearchParams, which: 'categories' | 'settlements'): ReferenceAnswer {
    const p = new Params(query);
    const { limit, offset } = page(p);
    let rows: Row[];
    let serialize: (row: Row) => Row;
    if (which === 'categories') {
      const parser = p.str('parser_name');
      const depth = p.int('depth');
      const parent = p.str('parent_source_uid');
      const q = p.str('q');
      if (p.issues.length) return { status: 422, body: { detail: p.issues } };
      const like = q ? likeFilter(q) : null;
      rows = this.categories.filter(
        (row) =>
          (!parser || row.parser_name === parser) &&
          (depth === null || (row.depth !== null && BigInt(Number(row.depth)) === depth)) &&
          (!parent || row.parent_source_uid === parent) &&
          (!like || ['title', 'title_normalized', 'alias', 'source_uid'].some((column) => like(row[column]))),
      );
      serialize = categoryItem;
    } else {
      const country = p.str('country');
      const region = p.str('region');
      const q = p.str('q');
      if (p.issues.length) return { status: 422, body: { detail: p.issues } };
      const like = q ? likeFilter(q) : null;
      rows = [...this.settlements.values()].filter(
        (row) =>
          (!country || row.country === country) &&
          (!region || row.region === region) &&
          (!like || ['name', 'alias', 'region', 'country'].some((column) => like(row[column]))),
      );
      serialize = settlementItem;
    }
    rows.sort((x, y) => -compareTimes(storedTime(x.updated_at), storedTime(y.updated_at)) || Number(x.id) - Number(y.id));
    return {
      status: 200,
      body: {
        items: slice(rows, limit!, offset!).map(serialize),
        meta: { limit: Number(limit), offset: offsetJson(offset!), total: rows.length },
      },
    };
  }

  private one(raw: string, name: string, rows: Row[], serialize: (row: Row) => Row, missing: string): ReferenceAnswer {
    const p = new Params(new URLSearchParams(), { [name]: raw });
    const id = p.int(name, { where: 'path' });
    if (p.issues.length) return { status: 422, body: { detail: p.issues } };
    const row = rows.find((candidate) => BigInt(Number(candidate.id)) === id);
    return row ? { status: 200, body: serialize(row) } : detail(404, missing);
  }

  private syncCursors(query: URLSearchParams): ReferenceAnswer {
    const parser = new Params(query).str('parser_name');
    if (this.cursors === null) return { status: 200, body: { items: [] } };
    const rows = this.cursors
      .filter((row) =>
        parser ? row.key === `receiver_cursor:${parser.trim().toLowerCase()}` : String(row.key).startsWith('receiver_cursor:'),
      )
      .sort((x, y) => compareText(String(x.key), String(y.key)));
    return {
      status: 200,
      body: {
        items: rows.map((row) => {
          const value = str(row.value) ?? '';
          const tab = value.lastIndexOf('\t');
          const id = tab < 0 ? '' : value.slice(tab + 1).trim();
          return {
            parser_name: String(row.key).slice('receiver_cursor:'.length),
            ingested_at: tab < 0 ? null : value.slice(0, tab).trim() || null,
            product_id: /^[+-]?\d+$/.test(id) ? Number(id) : null,
            updated_at: row.updated_at === null ? null : timeText(row.updated_at),
          };
        }),
      },
    };
  }
}

interface ProductGroup {
  latest: bigint | null;
  priceFrom: number | null;
  rating: number | null;
  item: Row;
}

function outranks(a: readonly [bigint | null, bigint | null, number], b: readonly [bigint | null, bigint | null, number]): boolean {
  for (let i = 0; i < 3; i += 1) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === y) continue;
    if (x === null) return false;
    if (y === null) return true;
    return x > y;
  }
  return false;
}

function compareTimes(a: bigint | null, b: bigint | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return a < b ? -1 : 1;
}

/** Nulls last for prices and ratings; ties by canonical id. */
function productOrder(sort: string): (x: ProductGroup, y: ProductGroup) => number {
  const byId = (x: ProductGroup, y: ProductGroup) => compareText(String(x.item.canonical_product_id), String(y.item.canonical_product_id));
  const nullsLast = (a: number | null, b: number | null, sign: number) =>
    a === null ? (b === null ? 0 : 1) : b === null ? -1 : sign * (a - b);
  switch (sort) {
    case 'observed_at_asc':
      return (x, y) => compareTimes(x.latest, y.latest) || byId(x, y);
    case 'price_asc':
      return (x, y) => nullsLast(x.priceFrom, y.priceFrom, 1) || byId(x, y);
    case 'price_desc':
      return (x, y) => nullsLast(x.priceFrom, y.priceFrom, -1) || byId(x, y);
    case 'rating_desc':
      return (x, y) => nullsLast(x.rating, y.rating, -1) || byId(x, y);
    default:
      return (x, y) => -compareTimes(x.latest, y.latest) || byId(x, y);
  }
}

/** A JSON number for the offset echo; beyond 2^53 the test compares what JSON.parse gives anyway. */
function offsetJson(offset: bigint): number {
  return Number(offset);
}

function requestTime(text: string): bigint | string {
  const trimmed = text.trim();
  if (!trimmed) return 'datetime value must be non-empty';
  if (!(trimmed in KNOWN_TIMES)) throw new Error(`the reference knows no answer for the date ${JSON.stringify(text)}`);
  const known = KNOWN_TIMES[trimmed]!;
  if (known === 'invalid') return 'datetime must be valid ISO8601';
  if (known === 'naive') return 'datetime must include timezone';
  return storedTime(known)!;
}

/**
 * Date texts and what Python 3.11 answers for `datetime.fromisoformat(text.replace("Z", "+00:00"))` then
 * `.astimezone(timezone.utc)` (run by hand; the UTC time, or invalid / naive).
 */
export const KNOWN_TIMES: Record<string, string> = {
  '2026-02-01T00:00:00Z': '2026-02-01T00:00:00Z',
  '2026-02-01T03:00:00+03:00': '2026-02-01T00:00:00Z',
  '2026-02-03T23:59:59Z': '2026-02-03T23:59:59Z',
  '2026-02-01T20:00:00Z': '2026-02-01T20:00:00Z',
  '20260201T100000Z': '2026-02-01T10:00:00Z',
  '2026-03-03T14.5Z': '2026-03-03T14:00:00.500000Z',
  '2026-03-03T10:00.5Z': '2026-03-03T10:00:00.500000Z',
  '2026-03-03T10,25+0300': '2026-03-03T07:00:00.250000Z',
  '2026-03-03T10:00:00.Z': '2026-03-03T10:00:00Z',
  '2026-03-03T10:00+05:30.5': '2026-03-03T04:29:59.500000Z',
  '2026-03-03T10:00:00 Z': '2026-03-03T10:00:00Z',
  '2026-W09-7T10Z': '2026-03-01T10:00:00Z',
  '2026-02-01T00:00:00.123456Z': '2026-02-01T00:00:00.123456Z',
  '2025-03-01T00:00:00Z': '2025-03-01T00:00:00Z',
  '2025-06-01T12:00:00-05:00': '2025-06-01T17:00:00Z',
  '2026-03-01T00:00:00Z': '2026-03-01T00:00:00Z',
  '2024-01-01T00:00:00Z': '2024-01-01T00:00:00Z',
  '2026-03-03T05:00.123456': 'naive',
  '2026-02-01T10:00:00': 'naive',
  '2026-02-01': 'naive',
  '2026-02-30T00:00:00Z': 'invalid',
  '2026-03-03T10:00:00.5 Z': 'invalid',
  '2026-02-01T10:00:00z': 'invalid',
  yesterday: 'invalid',
  '2026-03-03T10:00:00+24:00': 'invalid',
};

/** Columns as the service renders them: text trimmed (empty → null), numbers, flags, times in UTC with Z. */
function render(row: Row, shape: Record<string, 'int' | 'str' | 'num' | 'time'>): Row {
  const convert = { int, str, num, time: timeText };
  return Object.fromEntries(Object.entries(shape).map(([name, kind]) => [name, convert[kind](row[name])]));
}

function snapshotItem(row: Row): Row {
  return render(row, {
    id: 'int',
    canonical_product_id: 'str',
    parser_name: 'str',
    source_id: 'str',
    source_run_id: 'str',
    receiver_product_id: 'int',
    receiver_artifact_id: 'int',
    receiver_sort_order: 'int',
    source_event_uid: 'str',
    content_fingerprint: 'str',
    price: 'num',
    discount_price: 'num',
    loyal_price: 'num',
    price_unit: 'str',
    available_count: 'num',
    valid_from_at: 'time',
    valid_to_at: 'time',
    observed_at: 'time',
    created_at: 'time',
  });
}

function categoryItem(row: Row): Row {
  return render(row, {
    id: 'int',
    category_key: 'str',
    parser_name: 'str',
    source_uid: 'str',
    parent_source_uid: 'str',
    title: 'str',
    title_normalized: 'str',
    alias: 'str',
    depth: 'int',
    sort_order: 'int',
    first_seen_at: 'time',
    last_seen_at: 'time',
    updated_at: 'time',
  });
}

function settlementItem(row: Row): Row {
  return render(row, {
    id: 'int',
    geo_key: 'str',
    country: 'str',
    country_normalized: 'str',
    region: 'str',
    region_normalized: 'str',
    name: 'str',
    name_normalized: 'str',
    settlement_type: 'str',
    alias: 'str',
    latitude: 'num',
    longitude: 'num',
    first_seen_at: 'time',
    last_seen_at: 'time',
    updated_at: 'time',
  });
}
