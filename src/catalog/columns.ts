// What a person sees of each kind of row in a table; machine formats carry every field as the service sent it.
import type { Column } from '../core/output.js';
import type { Cursor, Item, ProductItem } from './client.js';

const TITLE_WIDTH = 60;

/** Long titles cut to keep the table readable. */
function short(value: unknown, width = TITLE_WIDTH): unknown {
  return typeof value === 'string' && value.length > width ? `${value.slice(0, width - 1)}…` : value;
}

const field = <T extends Item>(header: string, key: string = header): Column<T> => ({ header, value: (row) => row[key] });

export const PRODUCT_COLUMNS: Array<Column<ProductItem>> = [
  field('id', 'canonical_product_id'),
  { header: 'title', value: (row) => short(row.title) },
  field('brand'),
  field('price from', 'price_from'),
  field('unit', 'price_unit'),
  field('stores', 'parsers'),
  field('sources', 'sources_count'),
  field('observed', 'observed_at_latest'),
];

export const SOURCE_COLUMNS: Array<Column<Item>> = [
  field('store', 'parser_name'),
  field('source id', 'source_id'),
  { header: 'title', value: (row) => short(row.title_original) },
  field('price'),
  field('discount', 'discount_price'),
  field('loyal', 'loyal_price'),
  field('unit', 'price_unit'),
  field('available', 'available_count'),
  { header: 'settlement', value: (row) => (row.settlement as Item | null | undefined)?.name },
  field('observed', 'observed_at'),
];

export const SNAPSHOT_COLUMNS: Array<Column<Item>> = [
  field('id'),
  field('store', 'parser_name'),
  field('source id', 'source_id'),
  field('price'),
  field('discount', 'discount_price'),
  field('loyal', 'loyal_price'),
  field('available', 'available_count'),
  field('valid from', 'valid_from_at'),
  field('valid to', 'valid_to_at'),
  field('observed', 'observed_at'),
];

export const CATEGORY_COLUMNS: Array<Column<Item>> = [
  field('id'),
  field('store', 'parser_name'),
  field('uid', 'source_uid'),
  field('parent', 'parent_source_uid'),
  field('depth'),
  { header: 'title', value: (row) => short(row.title) },
];

export const SETTLEMENT_COLUMNS: Array<Column<Item>> = [
  field('id'),
  field('name'),
  field('type', 'settlement_type'),
  field('region'),
  field('country'),
];

export const CURSOR_COLUMNS: Array<Column<Cursor>> = [
  field('store', 'parser_name'),
  field('ingested', 'ingested_at'),
  field('product id', 'product_id'),
  field('updated', 'updated_at'),
];
