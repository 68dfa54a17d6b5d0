// A typed client for the 13 GET routes of the public read-only catalog service. No commander, no printing:
// methods take the service's own parameter names and return its answers, checked for shape at this boundary.
// Single answers are returned as they came: a script gets the service's JSON object unchanged.
import { ExitCode, TridentError } from '../core/errors.js';
import type { HttpClient } from '../core/http/client.js';
import { joinUrl, type QueryValue } from '../core/http/url.js';
import type { DynamicsField, Interval } from './validate.js';
import type { CommonCountAnswer, CountAnswer, Cursor, DynamicsAnswer, Item, ListMeta, Page, ProductItem } from '../wire/catalog/answers.js';

export interface PageRequest {
  limit?: number;
  offset?: number;
}

export interface ProductQuery extends PageRequest {
  q?: string;
  parser_name?: string;
  category_id?: number;
  settlement_id?: number;
  brand?: string;
  promo?: boolean;
  is_new?: boolean;
  hit?: boolean;
  adult?: boolean;
  price_min?: number;
  price_max?: number;
  sort?: string;
}

export interface SnapshotQuery extends PageRequest {
  parser_name?: string;
  source_id?: string;
  sort?: string;
}

export interface CategoryQuery extends PageRequest {
  parser_name?: string;
  depth?: number;
  parent_source_uid?: string;
  q?: string;
}

export interface SettlementQuery extends PageRequest {
  country?: string;
  region?: string;
  q?: string;
}

export interface StoreRegionFilter {
  store?: string[];
  region?: string[];
}

export interface DynamicsQuery {
  parser_name: string;
  source_id: string;
  field: DynamicsField;
  date_from: string;
  date_to: string;
  interval: Interval;
}

const isObject = (value: unknown): value is Item => typeof value === 'object' && value !== null && !Array.isArray(value);

export class CatalogClient {
  constructor(
    private readonly http: HttpClient,
    private readonly base: URL,
  ) {}

  health(): Promise<Item> {
    return this.object('/healthz');
  }

  products(query: ProductQuery = {}): Promise<Page<ProductItem>> {
    return this.page('/products', { ...query });
  }

  product(id: string): Promise<ProductItem> {
    return this.object(`/products/${encodeURIComponent(id)}`);
  }

  sources(id: string, query: PageRequest & { sort?: string } = {}): Promise<Page> {
    return this.page(`/products/${encodeURIComponent(id)}/sources`, { ...query });
  }

  snapshots(id: string, query: SnapshotQuery = {}): Promise<Page> {
    return this.page(`/products/${encodeURIComponent(id)}/snapshots`, { ...query });
  }

  count(filter: StoreRegionFilter = {}): Promise<CountAnswer> {
    return this.object('/products/count', { store: filter.store, region: filter.region });
  }

  commonCount(scope: string, filter: StoreRegionFilter = {}): Promise<CommonCountAnswer> {
    return this.object('/products/common/count', { scope, store: filter.store, region: filter.region });
  }

  async dynamics(id: string, query: DynamicsQuery): Promise<DynamicsAnswer> {
    const path = `/products/${encodeURIComponent(id)}/dynamics`;
    const answer = await this.object<DynamicsAnswer>(path, { ...query });
    if (!Array.isArray(answer.dates) || !Array.isArray(answer.values) || answer.dates.length !== answer.values.length) {
      throw unexpected(path, 'dates and values are not two lists of the same length');
    }
    return answer;
  }

  categories(query: CategoryQuery = {}): Promise<Page> {
    return this.page('/categories', { ...query });
  }

  category(id: number): Promise<Item> {
    return this.object(`/categories/${id}`);
  }

  settlements(query: SettlementQuery = {}): Promise<Page> {
    return this.page('/settlements', { ...query });
  }

  settlement(id: number): Promise<Item> {
    return this.object(`/settlements/${id}`);
  }

  /** The sync cursors: one list, not paged. */
  async cursors(query: { parser_name?: string } = {}): Promise<Cursor[]> {
    const answer = await this.object<{ items?: unknown }>('/sync/cursors', { ...query });
    if (!Array.isArray(answer.items)) throw unexpected('/sync/cursors', 'no items list');
    return answer.items as Cursor[];
  }

  private async object<T extends Item>(path: string, query?: Record<string, QueryValue>): Promise<T> {
    const response = await this.http.request({ method: 'GET', url: joinUrl(this.base, path, query) });
    const body = response.json();
    if (!isObject(body)) throw unexpected(path, 'not a JSON object');
    return body as T;
  }

  private async page<T extends Item>(path: string, query: Record<string, QueryValue>): Promise<Page<T>> {
    const body = await this.object<{ items?: unknown; meta?: unknown }>(path, query);
    const { items, meta } = body;
    if (!Array.isArray(items) || !isObject(meta) || typeof meta.total !== 'number') throw unexpected(path, 'no items list with meta.total');
    return { items: items as T[], meta: meta as unknown as ListMeta };
  }
}

function unexpected(path: string, what: string): TridentError {
  return new TridentError(ExitCode.unavailable, `catalog service answered GET ${path} with an unexpected shape: ${what}`, {
    hint: 'check that the URL points at the catalog service (try: trident catalog health --debug)',
  });
}
