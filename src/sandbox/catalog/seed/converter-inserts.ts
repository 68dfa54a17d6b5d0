// The seed's INSERT statements, one per table of the converter's schema, with every column it fills.
import type Database from 'better-sqlite3';

export type ConverterTable = 'settlement' | 'category' | 'product' | 'asset' | 'snapshot' | 'cursor' | 'source' | 'store';

export function prepareInserts(db: Database.Database): Record<ConverterTable, Database.Statement> {
  const insert = (table: string, columns: string[]) =>
    db.prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
  return {
    settlement: insert('catalog_settlements', [
      'id', 'geo_key', 'country', 'country_normalized', 'region', 'region_normalized', 'name', 'name_normalized',
      'settlement_type', 'alias', 'latitude', 'longitude', 'first_seen_at', 'last_seen_at', 'updated_at',
    ]),
    category: insert('catalog_categories', [
      'id', 'category_key', 'parser_name', 'source_uid', 'parent_source_uid', 'title', 'title_normalized', 'alias',
      'depth', 'sort_order', 'first_seen_at', 'last_seen_at', 'updated_at',
    ]),
    product: insert('catalog_products', [
      'id', 'canonical_product_id', 'parser_name', 'source_id', 'plu', 'sku', 'title_original',
      'title_normalized_no_stopwords', 'brand', 'price', 'discount_price', 'loyal_price', 'price_unit', 'rating',
      'reviews_count', 'promo', 'is_new', 'hit', 'adult', 'unit', 'available_count', 'package_quantity', 'package_unit',
      'primary_category_id', 'settlement_id', 'composition_original', 'composition_normalized', 'observed_at',
      'created_at', 'updated_at', 'source_page_url', 'producer_name', 'producer_country', 'expiration_date_in_days',
      'season', 'data_matrix',
    ]),
    asset: insert('catalog_product_assets', ['product_id', 'asset_kind', 'sort_order', 'value', 'created_at', 'updated_at']),
    snapshot: insert('catalog_product_snapshots', [
      'id', 'canonical_product_id', 'parser_name', 'source_id', 'source_run_id', 'receiver_product_id',
      'receiver_artifact_id', 'receiver_sort_order', 'source_event_uid', 'content_fingerprint', 'price',
      'discount_price', 'loyal_price', 'price_unit', 'available_count', 'valid_from_at', 'valid_to_at', 'observed_at',
      'created_at',
    ]),
    cursor: insert('converter_sync_state', ['key', 'value', 'updated_at']),
    source: insert('catalog_product_sources', [
      'parser_name', 'source_id', 'canonical_product_id', 'first_seen_at', 'last_seen_at', 'updated_at',
    ]),
    store: insert('catalog_stores', ['store_key', 'parser_name', 'code', 'settlement_id', 'first_seen_at', 'last_seen_at', 'updated_at']),
  };
}
