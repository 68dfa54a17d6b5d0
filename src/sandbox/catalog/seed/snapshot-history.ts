// The snapshots of one source: 10–14 over about a year, points first (older data), then validity intervals with
// gaps, drawn from the seeded generator in a fixed order (the row hash of each snapshot last), so that a seed
// always gives the same catalog.
import type { Rng } from '../../rng.js';
import type { Store } from './vocabulary.js';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** The converter's DATETIME text: naive UTC with microseconds, `2026-03-01 10:00:00.000000`. */
export function iso(ms: number): string {
  const text = new Date(ms).toISOString();
  return `${text.slice(0, 10)} ${text.slice(11, 23)}000`;
}

export function money(value: number): number {
  return Math.round(value * 100) / 100;
}

export interface SnapshotValues {
  price: number;
  discount: number | null;
  loyal: number | null;
  available: number | null;
}

export interface Snapshot {
  at: number;
  /** Its place among the source's snapshots, from 0. */
  index: number;
  values: SnapshotValues;
  observed: string;
  validFrom: string | null;
  validTo: string | null;
  hash: string;
}

export interface SourceHistory {
  first: number;
  last: SnapshotValues;
  lastSeen: number;
  snapshots: Snapshot[];
}

export function drawHistory(rng: Rng, now: number, store: Store, basePrice: number): SourceHistory {
  const count = rng.int(10, 14);
  const start = now - 365 * DAY + rng.int(0, 20) * DAY + rng.int(0, 1439) * MINUTE;
  const discontinued = rng.chance(0.08);
  const end = discontinued ? now - rng.int(30, 120) * DAY : now - rng.int(0, 36) * HOUR;
  const times = [start];
  for (let i = 1; i < count; i += 1) times.push(start + Math.floor((rng.next() * (end - start)) / MINUTE) * MINUTE);
  times.sort((a, b) => a - b);
  const points = rng.int(2, 5);
  let price = money(basePrice);
  let values: SnapshotValues = { price, discount: null, loyal: null, available: null };
  let lastSeen = start;
  const snapshots: Snapshot[] = [];
  for (let e = 0; e < count; e += 1) {
    const at = times[e]!;
    const next = e + 1 < count ? times[e + 1]! : end;
    if (e > 0 && rng.chance(0.45)) price = Math.max(1, money(price * (1 + (rng.next() - 0.45) * 0.2)));
    values = {
      price,
      discount: rng.chance(0.25) ? money(price * (0.75 + rng.next() * 0.17)) : null,
      loyal:
        store === 'perekrestok' && rng.chance(0.6)
          ? money(price * 0.93)
          : store === 'chizhik' && rng.chance(0.2)
            ? money(price * 0.97)
            : null,
      available: store === 'chizhik' && rng.chance(0.5) ? null : rng.int(0, 60),
    };
    const observed = iso(at);
    let validFrom: string | null = null;
    let validTo: string | null = null;
    if (e >= points && !rng.chance(0.15)) {
      // Seen until just before the next change, or with a gap (nothing scraped) before it.
      const until =
        e === count - 1 ? end : rng.chance(0.3) ? at + Math.floor((rng.next() * 0.6 * (next - at)) / MINUTE) * MINUTE : next - HOUR;
      lastSeen = Math.max(at, until);
      validFrom = observed;
      validTo = lastSeen === at ? observed : iso(lastSeen);
    } else {
      lastSeen = at;
    }
    snapshots.push({ at, index: e, values, observed, validFrom, validTo, hash: rng.hex32() });
  }
  return { first: start, last: values, lastSeen, snapshots };
}
