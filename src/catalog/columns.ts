// What a person sees of each kind of row in a table, and what a script gets: machine formats carry every
// field as the service sent it (the *_FIELDS lists name them in the service's order, for the header of an
// empty csv and for --columns). A table hides columns to fit a narrow terminal, lowest `hide` first; the
// columns without one (ids, titles, prices) are always shown.
import type { Column } from '../core/term/output/columns.js';
import type { Cursor, Item, ProductItem } from '../wire/catalog/answers.js';

const field = <T extends Item>(header: string, key: string = header, hide?: number): Column<T> => ({
  header,
  key,
  value: (row) => row[key],
  ...(hide ? { hide } : {}),
});

export const PRODUCT_FIELDS = [
  'canonical_product_id',
  'title',
  'brand',
  'price_from',
  'price_unit',
  'sources_count',
  'observed_at_latest',
  'image_url',
  'parsers',
];

export const PRODUCT_COLUMNS: Array<Column<ProductItem>> = [
  field('id', 'canonical_product_id'),
  field('title'),
  field('brand', 'brand', 5),
  field('price from', 'price_from'),
  field('unit', 'price_unit', 2),
  field('stores', 'parsers', 3),
  field('sources', 'sources_count', 1),
  field('observed', 'observed_at_latest', 4),
];

export const SOURCE_FIELDS = [
  'id',
  'canonical_product_id',
  'parser_name',
  'source_id',
  'plu',
  'sku',
  'title_original',
  'title_normalized_no_stopwords',
  'brand',
  'price',
  'discount_price',
  'loyal_price',
  'price_unit',
  'rating',
  'reviews_count',
  'promo',
  'is_new',
  'hit',
  'adult',
  'unit',
  'available_count',
  'package_quantity',
  'package_unit',
  'composition_original',
  'composition_normalized',
  'observed_at',
  'image_urls',
  'primary_category',
  'settlement',
];

export const SOURCE_COLUMNS: Array<Column<Item>> = [
  field('store', 'parser_name'),
  field('source id', 'source_id'),
  field('title', 'title_original'),
  field('price'),
  field('discount', 'discount_price', 4),
  field('loyal', 'loyal_price', 3),
  field('unit', 'price_unit', 2),
  field('available', 'available_count', 5),
  { header: 'settlement', key: 'settlement', value: (row) => (row.settlement as Item | null | undefined)?.name, hide: 1 },
  field('observed', 'observed_at', 6),
];

export const SNAPSHOT_FIELDS = [
  'id',
  'canonical_product_id',
  'parser_name',
  'source_id',
  'source_run_id',
  'receiver_product_id',
  'receiver_artifact_id',
  'receiver_sort_order',
  'source_event_uid',
  'content_fingerprint',
  'price',
  'discount_price',
  'loyal_price',
  'price_unit',
  'available_count',
  'valid_from_at',
  'valid_to_at',
  'observed_at',
  'created_at',
];

export const SNAPSHOT_COLUMNS: Array<Column<Item>> = [
  field('id'),
  field('store', 'parser_name', 6),
  field('source id', 'source_id', 5),
  field('price'),
  field('discount', 'discount_price', 4),
  field('loyal', 'loyal_price', 3),
  field('available', 'available_count', 2),
  field('valid from', 'valid_from_at'),
  field('valid to', 'valid_to_at', 7),
  field('observed', 'observed_at', 1),
];

export const CATEGORY_FIELDS = [
  'id',
  'category_key',
  'parser_name',
  'source_uid',
  'parent_source_uid',
  'title',
  'title_normalized',
  'alias',
  'depth',
  'sort_order',
  'first_seen_at',
  'last_seen_at',
  'updated_at',
];

export const CATEGORY_COLUMNS: Array<Column<Item>> = [
  field('id'),
  field('store', 'parser_name', 3),
  field('uid', 'source_uid'),
  field('parent', 'parent_source_uid', 1),
  field('depth', 'depth', 2),
  field('title'),
];

export const SETTLEMENT_FIELDS = [
  'id',
  'geo_key',
  'country',
  'country_normalized',
  'region',
  'region_normalized',
  'name',
  'name_normalized',
  'settlement_type',
  'alias',
  'latitude',
  'longitude',
  'first_seen_at',
  'last_seen_at',
  'updated_at',
];

export const SETTLEMENT_COLUMNS: Array<Column<Item>> = [
  field('id'),
  field('name'),
  field('type', 'settlement_type', 2),
  field('region', 'region', 3),
  field('country', 'country', 1),
];

export const CURSOR_FIELDS = ['parser_name', 'ingested_at', 'product_id', 'updated_at'];

export const CURSOR_COLUMNS: Array<Column<Cursor>> = [
  field('store', 'parser_name'),
  field('ingested', 'ingested_at'),
  field('product id', 'product_id', 2),
  field('updated', 'updated_at', 1),
];
