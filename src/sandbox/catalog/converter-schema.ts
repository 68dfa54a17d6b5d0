// The catalog as the real converter (Open-Inflation/converter) writes it to SQLite (as running its own write
// path shows): DATETIME columns holding naive UTC text (`2026-02-01 11:53:00.000000`), prices NUMERIC(12,4)
// (whole numbers read back as integers), BOOLEAN flags, the extra columns of catalog_products, tables the
// service never reads, and single-column indexes only. The seeded demo catalog uses it, so that the sandbox is
// exercised on the shape of real data.

export const CONVERTER_TABLES_SQL = `
CREATE TABLE catalog_products (
  id INTEGER NOT NULL PRIMARY KEY,
  canonical_product_id VARCHAR(36) NOT NULL,
  parser_name VARCHAR(64) NOT NULL,
  source_id VARCHAR(255) NOT NULL,
  plu VARCHAR(128),
  sku VARCHAR(128),
  title_original TEXT NOT NULL,
  title_normalized_no_stopwords TEXT NOT NULL,
  brand VARCHAR(255),
  source_page_url TEXT,
  description TEXT,
  producer_name VARCHAR(255),
  producer_country VARCHAR(32),
  expiration_date_in_days INTEGER,
  price NUMERIC(12, 4),
  discount_price NUMERIC(12, 4),
  loyal_price NUMERIC(12, 4),
  price_unit VARCHAR(32),
  rating FLOAT,
  reviews_count INTEGER,
  adult BOOLEAN,
  is_new BOOLEAN,
  promo BOOLEAN,
  season BOOLEAN,
  hit BOOLEAN,
  data_matrix BOOLEAN,
  unit VARCHAR(32) NOT NULL,
  available_count FLOAT,
  package_quantity FLOAT,
  package_unit VARCHAR(32),
  primary_category_id INTEGER,
  settlement_id INTEGER,
  composition_original TEXT,
  composition_normalized TEXT,
  observed_at DATETIME NOT NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  CONSTRAINT uq_catalog_products_source UNIQUE (parser_name, source_id)
);

CREATE TABLE catalog_product_assets (
  id INTEGER NOT NULL PRIMARY KEY,
  product_id INTEGER NOT NULL,
  asset_kind VARCHAR(19) NOT NULL,
  sort_order INTEGER NOT NULL,
  value TEXT NOT NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  CONSTRAINT uq_catalog_product_assets_slot UNIQUE (product_id, asset_kind, sort_order)
);

CREATE TABLE catalog_product_snapshots (
  id INTEGER NOT NULL PRIMARY KEY,
  canonical_product_id VARCHAR(36) NOT NULL,
  parser_name VARCHAR(64) NOT NULL,
  source_id VARCHAR(255) NOT NULL,
  source_run_id VARCHAR(64),
  receiver_product_id INTEGER,
  receiver_artifact_id INTEGER,
  receiver_sort_order INTEGER,
  source_event_uid VARCHAR(191),
  content_fingerprint VARCHAR(64),
  price NUMERIC(12, 4),
  discount_price NUMERIC(12, 4),
  loyal_price NUMERIC(12, 4),
  price_unit VARCHAR(32),
  available_count FLOAT,
  valid_from_at DATETIME,
  valid_to_at DATETIME,
  observed_at DATETIME NOT NULL,
  created_at DATETIME NOT NULL,
  CONSTRAINT uq_cps_event UNIQUE (source_event_uid)
);

CREATE TABLE catalog_categories (
  id INTEGER NOT NULL PRIMARY KEY,
  category_key VARCHAR(191) NOT NULL UNIQUE,
  parser_name VARCHAR(64) NOT NULL,
  source_uid VARCHAR(128),
  parent_source_uid VARCHAR(128),
  title TEXT,
  title_normalized TEXT,
  alias TEXT,
  adult BOOLEAN,
  depth INTEGER,
  sort_order INTEGER,
  first_seen_at DATETIME NOT NULL,
  last_seen_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL
);

CREATE TABLE catalog_settlements (
  id INTEGER NOT NULL PRIMARY KEY,
  geo_key VARCHAR(191) NOT NULL UNIQUE,
  country VARCHAR(64),
  country_normalized VARCHAR(128),
  region TEXT,
  region_normalized TEXT,
  name VARCHAR(255),
  name_normalized VARCHAR(255),
  settlement_type VARCHAR(32),
  alias VARCHAR(255),
  latitude FLOAT,
  longitude FLOAT,
  first_seen_at DATETIME NOT NULL,
  last_seen_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL
);

CREATE TABLE converter_sync_state (
  "key" VARCHAR(128) NOT NULL PRIMARY KEY,
  value TEXT NOT NULL,
  updated_at DATETIME NOT NULL
);

CREATE TABLE catalog_product_sources (
  parser_name VARCHAR(64) NOT NULL,
  source_id VARCHAR(255) NOT NULL,
  canonical_product_id VARCHAR(36) NOT NULL,
  latest_snapshot_id INTEGER,
  latest_content_fingerprint VARCHAR(64),
  first_seen_at DATETIME NOT NULL,
  last_seen_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL,
  PRIMARY KEY (parser_name, source_id)
);

CREATE TABLE catalog_stores (
  id INTEGER NOT NULL PRIMARY KEY,
  store_key VARCHAR(191) NOT NULL UNIQUE,
  parser_name VARCHAR(64) NOT NULL,
  code VARCHAR(128),
  address TEXT,
  settlement_id INTEGER,
  first_seen_at DATETIME NOT NULL,
  last_seen_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL
);

CREATE TABLE catalog_identity_map (
  parser_name VARCHAR(64) NOT NULL,
  identity_type VARCHAR(64) NOT NULL,
  identity_value VARCHAR(255) NOT NULL,
  canonical_product_id VARCHAR(36) NOT NULL,
  updated_at DATETIME NOT NULL,
  PRIMARY KEY (parser_name, identity_type, identity_value)
);

CREATE TABLE catalog_image_fingerprints (
  fingerprint VARCHAR(64) NOT NULL PRIMARY KEY,
  canonical_url TEXT NOT NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL
);

CREATE TABLE catalog_product_category_links (
  id INTEGER NOT NULL PRIMARY KEY,
  snapshot_id INTEGER NOT NULL,
  category_id INTEGER NOT NULL,
  sort_order INTEGER NOT NULL,
  is_primary BOOLEAN NOT NULL
);

CREATE TABLE catalog_storage_delete_outbox (
  id INTEGER NOT NULL PRIMARY KEY,
  dedupe_key VARCHAR(64) NOT NULL UNIQUE,
  image_url TEXT NOT NULL,
  status VARCHAR(7) NOT NULL,
  attempts INTEGER NOT NULL,
  enqueued_at DATETIME NOT NULL,
  available_at DATETIME NOT NULL,
  processed_at DATETIME,
  last_error TEXT
);
`;

// One column each, as the converter declares them (index=True), created after the rows are in.
export const CONVERTER_INDEXES_SQL = `
CREATE INDEX ix_catalog_products_canonical_product_id ON catalog_products (canonical_product_id);
CREATE INDEX ix_catalog_products_primary_category_id ON catalog_products (primary_category_id);
CREATE INDEX ix_catalog_products_settlement_id ON catalog_products (settlement_id);
CREATE INDEX ix_catalog_products_observed_at ON catalog_products (observed_at);
CREATE INDEX ix_catalog_product_assets_product_id ON catalog_product_assets (product_id);
CREATE INDEX ix_catalog_product_snapshots_canonical_product_id ON catalog_product_snapshots (canonical_product_id);
CREATE INDEX ix_catalog_product_snapshots_parser_name ON catalog_product_snapshots (parser_name);
CREATE INDEX ix_catalog_product_snapshots_source_id ON catalog_product_snapshots (source_id);
CREATE INDEX ix_catalog_product_snapshots_observed_at ON catalog_product_snapshots (observed_at);
CREATE INDEX ix_catalog_product_snapshots_valid_from_at ON catalog_product_snapshots (valid_from_at);
CREATE INDEX ix_catalog_product_snapshots_valid_to_at ON catalog_product_snapshots (valid_to_at);
CREATE INDEX ix_catalog_categories_parser_name ON catalog_categories (parser_name);
CREATE INDEX ix_catalog_categories_source_uid ON catalog_categories (source_uid);
CREATE INDEX ix_catalog_product_sources_canonical_product_id ON catalog_product_sources (canonical_product_id);
CREATE INDEX ix_catalog_stores_parser_name ON catalog_stores (parser_name);
CREATE INDEX ix_catalog_identity_map_canonical_product_id ON catalog_identity_map (canonical_product_id);
`;
