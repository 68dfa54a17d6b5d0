// A catalog database written the way the real converter writes one: its DDL, naive UTC DATETIME text with
// microseconds, NUMERIC prices (whole ones stored as integers), BOOLEAN flags, Russian settlements, category
// keys by uid or by title hash with a NULL source_uid, rows in its extra columns and tables.
import { CONVERTER_INDEXES_SQL, CONVERTER_TABLES_SQL } from '../../../src/sandbox/catalog/converter-schema.js';
import { openSqlite } from '../../../src/sandbox/catalog/sqlite/open.js';

export const CONVERTER_PRODUCT = '5f0c7a4e-9a51-4c53-8d7e-1b2f3a4c5d6e';
export const CONVERTER_OTHER = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';

export function buildConverterDb(file: string): string {
  const db = openSqlite(file);
  db.exec(CONVERTER_TABLES_SQL);
  const run = (sql: string, ...rows: unknown[][]) => {
    const statement = db.prepare(sql);
    for (const row of rows) statement.run(...row);
  };
  run(
    `INSERT INTO catalog_settlements (id, geo_key, country, country_normalized, region, region_normalized, name, name_normalized, settlement_type, latitude, longitude, first_seen_at, last_seen_at, updated_at)
     VALUES (?, ?, 'Россия', 'россия', ?, ?, ?, ?, 'город', NULL, NULL, '2026-01-10 08:00:00.000000', '2026-02-01 11:53:00.000000', ?)`,
    [1, 'россия|москва|москва', 'Москва', 'москва', 'Москва', 'москва', '2026-02-01 11:53:00.000000'],
    [
      2,
      'россия|санкт-петербург|санкт-петербург',
      'Санкт-Петербург',
      'санкт-петербург',
      'Санкт-Петербург',
      'санкт-петербург',
      '2026-02-01 11:53:00.123456',
    ],
    [
      3,
      'россия|новосибирская область|новосибирск',
      'Новосибирская область',
      null,
      'Новосибирск',
      'новосибирск',
      '2026-01-31 23:00:00.000000',
    ],
  );
  run(
    `INSERT INTO catalog_categories (id, category_key, parser_name, source_uid, parent_source_uid, title, title_normalized, alias, adult, depth, sort_order, first_seen_at, last_seen_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, NULL, 0, ?, ?, '2026-01-10 08:00:00.000000', '2026-02-01 11:53:00.000000', ?)`,
    [1, 'fixprice:uid:101', 'fixprice', '101', null, 'Молочные продукты', 'молочные продукты', 0, 0, '2026-02-01 11:53:00.000000'],
    [2, 'fixprice:uid:102', 'fixprice', '102', '101', 'Молоко', 'молоко', 1, 0, '2026-02-01 11:53:00.000000'],
    [
      3,
      'chizhik:title:6f1ed002ab5595859014ebf0951522d9',
      'chizhik',
      null,
      null,
      'Молоко и сливки',
      'молоко и сливки',
      0,
      3,
      '2026-02-01 12:00:00.000000',
    ],
  );
  const products = `INSERT INTO catalog_products (id, canonical_product_id, parser_name, source_id, plu, sku, title_original, title_normalized_no_stopwords,
      brand, source_page_url, description, producer_name, producer_country, expiration_date_in_days, price, discount_price, loyal_price, price_unit,
      rating, reviews_count, adult, is_new, promo, season, hit, data_matrix, unit, available_count, package_quantity, package_unit,
      primary_category_id, settlement_id, composition_original, composition_normalized, observed_at, created_at, updated_at)
    VALUES (?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, NULL, ?, 'RU', 10, ?, ?, ?, 'RUB', ?, ?, 0, ?, ?, 0, ?, 1, 'PCE', ?, 0.93, 'LTR', ?, ?, NULL, NULL, ?, '2026-01-10 08:00:00.000000', ?)`;
  run(
    products,
    // Whole prices land as integers (NUMERIC affinity); the chizhik row was seen a microsecond later.
    [
      1,
      CONVERTER_PRODUCT,
      'fixprice',
      '4607001',
      'fp-4607001',
      'Молоко Простоквашино 3,2% 930 мл',
      'молоко простоквашино 3 2 930 мл',
      'Простоквашино',
      'https://fix-price.com/catalog/4607001',
      'Данон',
      100,
      89.9,
      null,
      4.7,
      120,
      0,
      1,
      0,
      12,
      2,
      1,
      '2026-02-01 11:53:00.000000',
      '2026-02-01 11:53:00.000000',
    ],
    [
      2,
      CONVERTER_PRODUCT,
      'chizhik',
      '88001',
      null,
      'Молоко 3,2% Простоквашино 930мл',
      'молоко 3 2 простоквашино 930мл',
      'Простоквашино',
      null,
      null,
      95,
      null,
      91.5,
      null,
      null,
      1,
      0,
      1,
      null,
      3,
      2,
      '2026-02-01 11:53:00.000001',
      '2026-02-01 11:53:00.000001',
    ],
    [
      3,
      CONVERTER_OTHER,
      'perekrestok',
      'p-55',
      'pk-55',
      'Кефир 1% Простоквашино',
      'кефир 1 простоквашино',
      ' ',
      null,
      null,
      79.99,
      69,
      null,
      4.1,
      15,
      0,
      0,
      0,
      0,
      null,
      3,
      '2026-01-31 20:00:00.000000',
      '2026-01-31 20:00:00.000000',
    ],
    [
      4,
      CONVERTER_OTHER,
      'fixprice',
      '4607002',
      null,
      'Кефир Простоквашино 1% 900 г',
      'кефир простоквашино 1 900 г',
      'Простоквашино',
      null,
      null,
      80,
      null,
      null,
      null,
      null,
      1,
      0,
      0,
      5,
      2,
      1,
      '2026-01-31 20:00:00.000000',
      '2026-02-01 09:00:00.000000',
    ],
  );
  run(
    `INSERT INTO catalog_product_assets (product_id, asset_kind, sort_order, value, created_at, updated_at) VALUES (?, ?, ?, ?, '2026-01-10 08:00:00.000000', '2026-01-10 08:00:00.000000')`,
    [1, 'image_url', 0, 'https://img.example/4607001/0.webp'],
    [1, 'image_url', 1, 'https://img.example/4607001/1.webp'],
    [1, 'image_fingerprint', 0, '9f86d081884c7d65'],
    [4, 'duplicate_image_url', 0, 'https://img.example/dup.webp'],
  );
  // The converter: valid_from_at = valid_to_at = observed_at for a new snapshot, valid_to_at extended when a
  // later observation has the same content.
  run(
    `INSERT INTO catalog_product_snapshots (id, canonical_product_id, parser_name, source_id, source_run_id, receiver_product_id, receiver_artifact_id,
      receiver_sort_order, source_event_uid, content_fingerprint, price, discount_price, loyal_price, price_unit, available_count, valid_from_at, valid_to_at, observed_at, created_at)
     VALUES (?, ?, ?, ?, 'run-1', ?, 7, ?, ?, ?, ?, ?, NULL, 'RUB', ?, ?, ?, ?, ?)`,
    [
      1,
      CONVERTER_PRODUCT,
      'fixprice',
      '4607001',
      501,
      0,
      'fixprice:501:0',
      'a1',
      100,
      null,
      10,
      '2026-01-30 10:00:00.000000',
      '2026-01-31 09:00:00.000000',
      '2026-01-30 10:00:00.000000',
      '2026-01-30 10:00:05.250000',
    ],
    [
      2,
      CONVERTER_PRODUCT,
      'fixprice',
      '4607001',
      502,
      0,
      'fixprice:502:0',
      'a2',
      100,
      89.9,
      12,
      '2026-02-01 11:53:00.000000',
      '2026-02-01 11:53:00.000000',
      '2026-02-01 11:53:00.000000',
      '2026-02-01 11:53:01.000000',
    ],
    [
      3,
      CONVERTER_PRODUCT,
      'chizhik',
      '88001',
      601,
      1,
      'chizhik:601:1',
      'b1',
      95,
      null,
      null,
      '2026-02-01 11:53:00.000001',
      '2026-02-01 11:53:00.000001',
      '2026-02-01 11:53:00.000001',
      '2026-02-01 11:53:00.000001',
    ],
    [
      4,
      CONVERTER_OTHER,
      'perekrestok',
      'p-55',
      701,
      0,
      'perekrestok:701:0',
      'c1',
      79.99,
      69,
      0,
      null,
      null,
      '2026-01-31 20:00:00.000000',
      '2026-01-31 20:00:00.000000',
    ],
  );
  run(
    `INSERT INTO converter_sync_state ("key", value, updated_at) VALUES (?, ?, ?)`,
    ['receiver_cursor:fixprice', '2026-02-01 11:53:00.000000\t502', '2026-02-01 11:53:02.000000'],
    ['converter_schema_version', '7', '2026-01-10 08:00:00.000000'],
  );
  run(
    `INSERT INTO catalog_product_sources (parser_name, source_id, canonical_product_id, first_seen_at, last_seen_at, updated_at) VALUES (?, ?, ?, '2026-01-30 10:00:00.000000', '2026-02-01 11:53:00.000000', '2026-02-01 11:53:00.000000')`,
    ['fixprice', '4607001', CONVERTER_PRODUCT],
  );
  run(
    `INSERT INTO catalog_identity_map (parser_name, identity_type, identity_value, canonical_product_id, updated_at) VALUES ('fixprice', 'barcode', '4607001', ?, '2026-02-01 11:53:00.000000')`,
    [CONVERTER_PRODUCT],
  );
  db.exec(CONVERTER_INDEXES_SQL);
  db.close();
  return file;
}
