// The catalog service's answers, with its own field names: the client checks answers against these shapes
// and the sandbox serves them, so both take them from here.
export type Item = Record<string, unknown>;

export interface ListMeta {
  limit: number;
  offset: number;
  total: number;
}

export interface Page<T = Item> {
  items: T[];
  meta: ListMeta;
}

export interface ProductItem extends Item {
  canonical_product_id: string;
  title: string | null;
  brand: string | null;
  price_from: number | null;
  price_unit: string | null;
  sources_count: number;
  observed_at_latest: string | null;
  image_url: string | null;
  parsers: string[];
}

export interface CountAnswer extends Item {
  products_count: number;
  stores: string[] | null;
  regions: string[] | null;
}

export interface CommonCountAnswer extends Item {
  scope: string;
  common_products_count: number;
  required_stores: number | null;
  required_regions: number | null;
  stores: string[] | null;
  regions: string[] | null;
}

export interface DynamicsAnswer extends Item {
  dates: string[];
  values: Array<number | null>;
  meta: Item;
}

export interface Cursor extends Item {
  parser_name: string;
  ingested_at: string | null;
  product_id: number | null;
  updated_at: string | null;
}
