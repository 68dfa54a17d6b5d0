// The rows of the demo catalog, drawn from one seeded generator in a fixed order (so that a seed always
// gives the same catalog): settlements, the category tree of each store, then each product's source rows with
// their images and about a year of snapshots, and last the converter's sync cursor of each store.
import type { Rng } from '../../rng.js';
import type { SqliteDatabase, SqliteStatement } from '../sqlite/types.js';
import { prepareInserts, type ConverterTable } from './converter-inserts.js';
import { DAY, drawHistory, HOUR, iso, MINUTE, money, type SourceHistory } from './snapshot-history.js';
import {
  CATEGORIES,
  COUNTRY,
  PRODUCT_KINDS,
  SETTLEMENTS,
  STORE_CATEGORY_PREFIX,
  STORE_SETTLEMENTS,
  STORES,
  type ProductKind,
  type Store,
} from './vocabulary.js';

export class Seeder {
  private readonly insert: Record<ConverterTable, SqliteStatement>;
  private readonly storesSeen = new Set<string>();
  private readonly categoryIds = new Map<string, number>();
  private rowId = 0;
  private snapshotId = 0;
  private receiverProductId = 0;
  private readonly lastReceiverId = new Map<Store, number>();

  constructor(
    db: SqliteDatabase,
    private readonly rng: Rng,
    private readonly now: number,
  ) {
    this.insert = prepareInserts(db);
  }

  /** Writes the catalog, yielding the number of products written so far after every `every` of them and the last. */
  *run(products: number, every = 250): Generator<number, void, void> {
    this.settlements();
    this.categories();
    for (let i = 1; i <= products; i += 1) {
      this.product();
      if (i % every === 0 || i === products) yield i;
    }
    for (const store of STORES) {
      const ingestedAt = this.now - this.rng.int(1, 90) * MINUTE;
      this.insert.cursor.run(
        `receiver_cursor:${store}`,
        `${iso(ingestedAt)}\t${this.lastReceiverId.get(store) ?? 0}`,
        iso(ingestedAt + MINUTE),
      );
    }
  }

  private settlements(): void {
    const firstSeen = iso(this.now - 365 * DAY);
    const country = COUNTRY.toLowerCase();
    for (const s of SETTLEMENTS) {
      // `россия|москва|москва`: country, region and name, normalized.
      const geoKey = [country, (s.regionNormalized ?? s.region).toLowerCase(), s.name.toLowerCase()].join('|');
      const alias = s.id === 1 ? 'msk' : s.id === 3 ? 'spb' : null;
      this.insert.settlement.run(
        s.id,
        geoKey,
        COUNTRY,
        country,
        s.region,
        s.regionNormalized,
        s.name,
        s.name.toLowerCase(),
        s.type,
        alias,
        s.lat,
        s.lon,
        firstSeen,
        iso(this.now),
        iso(this.now - s.id * HOUR),
      );
    }
  }

  private categories(): void {
    let id = 0;
    const firstSeen = iso(this.now - 365 * DAY);
    for (const store of STORES) {
      const prefix = STORE_CATEGORY_PREFIX[store];
      const uid = (key: string) => `${prefix}-${100 + CATEGORIES.findIndex((c) => c.key === key)}`;
      const siblings = new Map<string | null, number>();
      for (const category of CATEGORIES) {
        id += 1;
        let depth = 0;
        for (let parent = category.parent; parent; parent = CATEGORIES.find((c) => c.key === parent)!.parent) depth += 1;
        const sortOrder = siblings.get(category.parent) ?? 0;
        siblings.set(category.parent, sortOrder + 1);
        this.insert.category.run(
          id,
          `${store}:uid:${uid(category.key)}`,
          store,
          uid(category.key),
          category.parent ? uid(category.parent) : null,
          category.title,
          category.title.toLowerCase(),
          category.alias,
          depth,
          sortOrder,
          firstSeen,
          iso(this.now - this.rng.int(0, 48) * HOUR),
          iso(this.now - this.rng.int(0, 240) * HOUR),
        );
        this.categoryIds.set(`${store}:${category.key}`, id);
      }
    }
  }

  private product(): void {
    const rng = this.rng;
    const kind = rng.pick(PRODUCT_KINDS);
    const brand = rng.pick(kind.brands);
    const variant = rng.pick(kind.variants);
    const size = rng.pick(kind.sizes);
    const basePrice = Math.floor(kind.price[0] + rng.next() * (kind.price[1] - kind.price[0])) + rng.pick([0, 0.9, 0.99]);
    const canonicalId = rng.uuid();
    const storeCount = rng.chance(0.3) ? 3 : rng.chance(0.5) ? 2 : 1;
    const stores = rng.shuffled(STORES).slice(0, storeCount);
    const rating = rng.chance(0.8) ? rng.int(35, 50) / 10 : null;
    // Each store spells the same product its own way.
    const titles: Record<Store, string> = {
      fixprice: [kind.noun, brand, variant, size[1]].filter(Boolean).join(' '),
      chizhik: [kind.noun, variant, brand, size[1]].filter(Boolean).join(' '),
      perekrestok: `${[kind.noun, brand, variant].filter(Boolean).join(' ')}, ${size[1]}`,
    };

    for (const store of stores) {
      const places = STORE_SETTLEMENTS[store];
      const first = rng.chance(0.7) ? places[0]! : rng.pick(places);
      const settlements = [first];
      if (rng.chance(0.25)) {
        const second = rng.pick(places.filter((place) => place !== first));
        settlements.push(second);
      }
      for (const settlementId of settlements) {
        this.sourceRow({ canonicalId, store, settlementId, kind, brand, title: titles[store], size, basePrice, rating });
      }
    }
  }

  private sourceRow(p: {
    canonicalId: string;
    store: Store;
    settlementId: number;
    kind: ProductKind;
    brand: string | null;
    title: string;
    size: [number, string, string];
    basePrice: number;
    rating: number | null;
  }): void {
    const rng = this.rng;
    this.rowId += 1;
    const id = this.rowId;
    const sourceId = String(100000 + id);
    const history = this.history(
      p.canonicalId,
      p.store,
      sourceId,
      p.basePrice * (p.store === 'perekrestok' ? 1.1 : p.store === 'chizhik' ? 0.95 : 1),
    );
    const rowRating = p.rating === null ? null : Math.min(5, Math.max(1, money(p.rating + (rng.next() - 0.5) * 0.4)));
    this.insert.product.run(
      id,
      p.canonicalId,
      p.store,
      sourceId,
      String(rng.int(10000, 99999)),
      `${STORE_CATEGORY_PREFIX[p.store]}-${rng.int(100000, 999999)}`,
      p.title,
      normalizeTitle(p.title),
      p.brand,
      history.last.price,
      history.last.discount,
      history.last.loyal,
      'RUB',
      rowRating,
      rowRating === null ? null : rng.int(0, 800),
      history.last.discount !== null ? 1 : 0,
      rng.chance(0.05) ? 1 : 0,
      rng.chance(0.1) ? 1 : 0,
      p.kind.adult ? 1 : 0,
      p.kind.unit,
      history.last.available,
      p.size[0],
      p.size[2],
      this.categoryIds.get(`${p.store}:${p.kind.category}`) ?? null,
      p.settlementId,
      null,
      null,
      iso(history.lastSeen),
      iso(history.first),
      iso(history.lastSeen),
      // The converter's extra columns, from what is already known: a draw here would shift every later one.
      `https://${p.store}.example/catalog/${sourceId}`,
      p.brand,
      p.brand === null ? null : 'Россия',
      SHELF_LIFE_DAYS[p.kind.category] ?? null,
      0,
      p.kind.category in SHELF_LIFE_DAYS ? 1 : 0,
    );
    this.insert.source.run(p.store, sourceId, p.canonicalId, iso(history.first), iso(history.lastSeen), iso(history.lastSeen));
    const storeKey = `${p.store}:${p.settlementId}`;
    if (!this.storesSeen.has(storeKey)) {
      this.storesSeen.add(storeKey);
      this.insert.store.run(
        storeKey,
        p.store,
        `${STORE_CATEGORY_PREFIX[p.store]}-${p.settlementId}`,
        p.settlementId,
        iso(history.first),
        iso(this.now),
        iso(this.now),
      );
    }
    if (rng.chance(0.9)) {
      const stamp = iso(history.first);
      this.insert.asset.run(id, 'image_url', 0, `https://img.${p.store}.example/${sourceId}/0.webp`, stamp, stamp);
      if (rng.chance(0.6)) this.insert.asset.run(id, 'image_url', 1, `https://img.${p.store}.example/${sourceId}/1.webp`, stamp, stamp);
    }
  }

  /** A source's snapshots (snapshot-history.ts), inserted with their ids and the receiver's product id. */
  private history(canonicalId: string, store: Store, sourceId: string, basePrice: number): SourceHistory {
    const history = drawHistory(this.rng, this.now, store, basePrice);
    this.receiverProductId += 1;
    for (const snapshot of history.snapshots) {
      this.snapshotId += 1;
      this.insert.snapshot.run(
        this.snapshotId,
        canonicalId,
        store,
        sourceId,
        `${store}-run-${Math.floor(snapshot.at / DAY)}`,
        this.receiverProductId,
        Math.floor(snapshot.at / DAY),
        snapshot.index,
        `${store}:${sourceId}:${snapshot.index}`,
        snapshot.hash,
        snapshot.values.price,
        snapshot.values.discount,
        snapshot.values.loyal,
        'RUB',
        snapshot.values.available,
        snapshot.validFrom,
        snapshot.validTo,
        snapshot.observed,
        snapshot.observed,
      );
    }
    this.lastReceiverId.set(store, this.receiverProductId);
    return history;
  }
}

/** Shelf life of perishable kinds (their rows also carry a data matrix code, as such goods must). */
const SHELF_LIFE_DAYS: Record<string, number> = { milk: 10, cheese: 60, juice: 365, water: 540 };

function normalizeTitle(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^\p{L}\p{N}%]+/gu, ' ')
    .trim();
}
