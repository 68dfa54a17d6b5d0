// Stored rows → answer objects, field by field as the public catalog service renders them.
import { dbTimestampToIsoZ } from './time.js';
import { asBool, asFloat, asInt, pythonStrip, safeStr } from './values.js';

export type Row = Record<string, unknown>;

export function sourceItem(row: Row, imageUrls: string[]): Row {
  const categoryId = row.__cat_id;
  const settlementId = row.__set_id;
  return {
    id: asInt(row.id),
    canonical_product_id: String(row.canonical_product_id),
    parser_name: safeStr(row.parser_name),
    source_id: safeStr(row.source_id),
    plu: safeStr(row.plu),
    sku: safeStr(row.sku),
    title_original: safeStr(row.title_original),
    title_normalized_no_stopwords: safeStr(row.title_normalized_no_stopwords),
    brand: safeStr(row.brand),
    price: asFloat(row.price),
    discount_price: asFloat(row.discount_price),
    loyal_price: asFloat(row.loyal_price),
    price_unit: safeStr(row.price_unit),
    rating: asFloat(row.rating),
    reviews_count: asInt(row.reviews_count),
    promo: asBool(row.promo),
    is_new: asBool(row.is_new),
    hit: asBool(row.hit),
    adult: asBool(row.adult),
    unit: safeStr(row.unit),
    available_count: asFloat(row.available_count),
    package_quantity: asFloat(row.package_quantity),
    package_unit: safeStr(row.package_unit),
    composition_original: safeStr(row.composition_original),
    composition_normalized: safeStr(row.composition_normalized),
    observed_at: dbTimestampToIsoZ(row.observed_at),
    image_urls: imageUrls,
    primary_category:
      categoryId === null || categoryId === undefined
        ? null
        : { id: asInt(categoryId), source_uid: safeStr(row.__cat_source_uid), title: safeStr(row.__cat_title) },
    settlement:
      settlementId === null || settlementId === undefined
        ? null
        : {
            id: asInt(settlementId),
            name: safeStr(row.__set_name),
            region: safeStr(row.__set_region),
            country: safeStr(row.__set_country),
          },
  };
}

export function snapshotItem(row: Row): Row {
  return {
    id: asInt(row.id),
    canonical_product_id: safeStr(row.canonical_product_id),
    parser_name: safeStr(row.parser_name),
    source_id: safeStr(row.source_id),
    source_run_id: safeStr(row.source_run_id),
    receiver_product_id: asInt(row.receiver_product_id),
    receiver_artifact_id: asInt(row.receiver_artifact_id),
    receiver_sort_order: asInt(row.receiver_sort_order),
    source_event_uid: safeStr(row.source_event_uid),
    content_fingerprint: safeStr(row.content_fingerprint),
    price: asFloat(row.price),
    discount_price: asFloat(row.discount_price),
    loyal_price: asFloat(row.loyal_price),
    price_unit: safeStr(row.price_unit),
    available_count: asFloat(row.available_count),
    valid_from_at: dbTimestampToIsoZ(row.valid_from_at),
    valid_to_at: dbTimestampToIsoZ(row.valid_to_at),
    observed_at: dbTimestampToIsoZ(row.observed_at),
    created_at: dbTimestampToIsoZ(row.created_at),
  };
}

export function categoryItem(row: Row): Row {
  return {
    id: asInt(row.id),
    category_key: safeStr(row.category_key),
    parser_name: safeStr(row.parser_name),
    source_uid: safeStr(row.source_uid),
    parent_source_uid: safeStr(row.parent_source_uid),
    title: safeStr(row.title),
    title_normalized: safeStr(row.title_normalized),
    alias: safeStr(row.alias),
    depth: asInt(row.depth),
    sort_order: asInt(row.sort_order),
    first_seen_at: dbTimestampToIsoZ(row.first_seen_at),
    last_seen_at: dbTimestampToIsoZ(row.last_seen_at),
    updated_at: dbTimestampToIsoZ(row.updated_at),
  };
}

export function settlementItem(row: Row): Row {
  return {
    id: asInt(row.id),
    geo_key: safeStr(row.geo_key),
    country: safeStr(row.country),
    country_normalized: safeStr(row.country_normalized),
    region: safeStr(row.region),
    region_normalized: safeStr(row.region_normalized),
    name: safeStr(row.name),
    name_normalized: safeStr(row.name_normalized),
    settlement_type: safeStr(row.settlement_type),
    alias: safeStr(row.alias),
    latitude: asFloat(row.latitude),
    longitude: asFloat(row.longitude),
    first_seen_at: dbTimestampToIsoZ(row.first_seen_at),
    last_seen_at: dbTimestampToIsoZ(row.last_seen_at),
    updated_at: dbTimestampToIsoZ(row.updated_at),
  };
}

/** A `receiver_cursor:<parser>` row: value `"<ingested_at>\t<product_id>"`, split at the last tab. */
export function cursorItem(row: Row): Row {
  const key = safeStr(row.state_key) ?? '';
  const raw = safeStr(row.value) ?? '';
  const tab = raw.lastIndexOf('\t');
  let ingestedAt: string | null = null;
  let productId: number | null = null;
  if (tab >= 0) {
    ingestedAt = pythonStrip(raw.slice(0, tab)) || null;
    const idText = pythonStrip(raw.slice(tab + 1));
    productId = /^[+-]?\d+(?:_\d+)*$/.test(idText) ? Number(idText.replaceAll('_', '')) : null;
  }
  return {
    parser_name: key.startsWith('receiver_cursor:') ? key.slice('receiver_cursor:'.length) : key,
    ingested_at: ingestedAt,
    product_id: productId,
    updated_at: row.updated_at === null || row.updated_at === undefined ? null : dbTimestampToIsoZ(row.updated_at),
  };
}
