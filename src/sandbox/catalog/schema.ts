// The six converter tables the catalog service reads, as SQLite DDL, and the indexes its queries need.
// Timestamps are TEXT in ISO 8601 (seeded as `2026-03-01T10:00:00+00:00`).

export const CATALOG_TABLES_SQL = `
CREATE TABLE catalog_products (
  id INTEGER PRIMARY KEY,
  canonical_product_id TEXT NOT NULL,
  parser_name TEXT NOT NULL,
  source_id TEXT NOT NULL,
  plu TEXT,
  sku TEXT,
  title_original TEXT NOT NULL,
  title_normalized_no_stopwords TEXT NOT NULL,
  brand TEXT,
  price REAL,
  discount_price REAL,
  loyal_price REAL,
  price_unit TEXT,
  rating REAL,
  reviews_count INTEGER,
  promo INTEGER,
  is_new INTEGER,
  hit INTEGER,
  adult INTEGER,
  unit TEXT NOT NULL,
  available_count REAL,
  package_quantity REAL,
  package_unit TEXT,
  primary_category_id INTEGER,
  settlement_id INTEGER,
  composition_original TEXT,
  composition_normalized TEXT,
  observed_at TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  CONSTRAINT uq_catalog_products_source UNIQUE (parser_name, source_id)
);

CREATE TABLE catalog_product_assets (
  id INTEGER PRIMARY KEY,
  product_id INTEGER NOT NULL,
  asset_kind TEXT NOT NULL,
  sort_order INTEGER NOT NULL,
  value TEXT NOT NULL,
  created_at TEXT,
  updated_at TEXT,
  CONSTRAINT uq_catalog_product_assets_slot UNIQUE (product_id, asset_kind, sort_order)
);

CREATE TABLE catalog_product_snapshots (
  id INTEGER PRIMARY KEY,
  canonical_product_id TEXT NOT NULL,
  parser_name TEXT NOT NULL,
  source_id TEXT NOT NULL,
  source_run_id TEXT,
  receiver_product_id INTEGER,
  receiver_artifact_id INTEGER,
  receiver_sort_order INTEGER,
  source_event_uid TEXT,
  content_fingerprint TEXT,
  price REAL,
  discount_price REAL,
  loyal_price REAL,
  price_unit TEXT,
  available_count REAL,
  valid_from_at TEXT,
  valid_to_at TEXT,
  observed_at TEXT NOT NULL,
  created_at TEXT NOT NULL,
  CONSTRAINT uq_cps_event UNIQUE (source_event_uid)
);

CREATE TABLE catalog_categories (
  id INTEGER PRIMARY KEY,
  category_key TEXT NOT NULL UNIQUE,
  parser_name TEXT NOT NULL,
  source_uid TEXT,
  parent_source_uid TEXT,
  title TEXT,
  title_normalized TEXT,
  alias TEXT,
  depth INTEGER,
  sort_order INTEGER,
  first_seen_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE catalog_settlements (
  id INTEGER PRIMARY KEY,
  geo_key TEXT NOT NULL UNIQUE,
  country TEXT,
  country_normalized TEXT,
  region TEXT,
  region_normalized TEXT,
  name TEXT,
  name_normalized TEXT,
  settlement_type TEXT,
  alias TEXT,
  latitude REAL,
  longitude REAL,
  first_seen_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE converter_sync_state (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
`;

// The product list groups rows by canonical id and orders products by time, price or rating: the first
// index covers all of that (and the common counts), so a full pass never touches the table. The other two
// serve counts filtered by store or settlement; dynamics reads the history of one source.
export const CATALOG_INDEXES_SQL = `
CREATE INDEX ix_catalog_products_canonical ON catalog_products
  (canonical_product_id, observed_at, updated_at, parser_name, settlement_id, discount_price, loyal_price, price, rating);
CREATE INDEX ix_catalog_products_parser ON catalog_products (parser_name, canonical_product_id);
CREATE INDEX ix_catalog_products_settlement ON catalog_products (settlement_id, canonical_product_id, parser_name);
CREATE INDEX ix_catalog_products_category ON catalog_products (primary_category_id);
CREATE INDEX ix_catalog_products_observed ON catalog_products (observed_at);
CREATE INDEX ix_catalog_product_snapshots_source ON catalog_product_snapshots (canonical_product_id, parser_name, source_id);
CREATE INDEX ix_catalog_categories_parser ON catalog_categories (parser_name, depth);
CREATE INDEX ix_catalog_settlements_region ON catalog_settlements (region);
`;

export const CATALOG_SCHEMA_SQL = CATALOG_TABLES_SQL + CATALOG_INDEXES_SQL;
