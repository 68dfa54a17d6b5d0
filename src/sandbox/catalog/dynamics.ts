// The dynamics series of the public catalog service: buckets anchored at date_from (converted to UTC),
// each snapshot offering its value to every bucket its validity interval touches, the latest observation
// winning a bucket, no forward fill.
import { formatIsoZ, readDbInstant, type Instant } from './time.js';
import { asFloat } from './values.js';

export const DYNAMICS_FIELDS = ['price', 'discount_price', 'loyal_price', 'available_count'] as const;
export type DynamicsField = (typeof DYNAMICS_FIELDS)[number];

const HOUR = 3_600_000_000n;
export const DYNAMICS_INTERVALS = { '1h': HOUR, '6h': 6n * HOUR, '1d': 24n * HOUR, '7d': 168n * HOUR } as const;
export type DynamicsInterval = keyof typeof DYNAMICS_INTERVALS;

export const MAX_DYNAMICS_POINTS = 20_000;

export function isDynamicsField(value: string): value is DynamicsField {
  return (DYNAMICS_FIELDS as readonly string[]).includes(value);
}

export function isDynamicsInterval(value: string): value is DynamicsInterval {
  return Object.prototype.hasOwnProperty.call(DYNAMICS_INTERVALS, value);
}

/** floor((to − from) / step) + 1, exact. */
export function pointCount(from: Instant, to: Instant, step: bigint): number {
  const span = to - from;
  const whole = span >= 0n ? span / step : -((-span + step - 1n) / step);
  return Number(whole) + 1;
}

/** One stored snapshot of a source: its times as stored and the requested field. */
export interface SnapshotCoverage {
  id: number;
  observed_at: unknown;
  valid_from_at: unknown;
  valid_to_at: unknown;
  value: unknown;
}

export interface Series {
  dates: string[];
  values: Array<number | null>;
}

interface Offer {
  observed: Instant;
  id: number;
  first: number;
  last: number;
  value: number | null;
}

export function buildSeries(snapshots: readonly SnapshotCoverage[], from: Instant, to: Instant, step: bigint): Series {
  const count = pointCount(from, to, step);
  const offers: Offer[] = [];
  for (const snapshot of snapshots) {
    const offer = toOffer(snapshot, from, to, step, count);
    if (offer) offers.push(offer);
  }
  // Strongest first: latest observed_at, then the higher id. Each bucket keeps the first offer it gets.
  offers.sort((a, b) => (a.observed === b.observed ? b.id - a.id : a.observed > b.observed ? -1 : 1));

  const values: Array<number | null> = new Array<number | null>(count).fill(null);
  // nextFree[i]: the first bucket ≥ i still without a winner (path-compressed), so that long intervals
  // cost nothing once their buckets are taken.
  const nextFree = new Int32Array(count + 1);
  for (let i = 0; i <= count; i += 1) nextFree[i] = i;
  const find = (start: number): number => {
    let root = start;
    while (nextFree[root] !== root) root = nextFree[root]!;
    let node = start;
    while (nextFree[node] !== root) {
      const up = nextFree[node]!;
      nextFree[node] = root;
      node = up;
    }
    return root;
  };
  for (const offer of offers) {
    for (let bucket = find(offer.first); bucket <= offer.last; bucket = find(bucket)) {
      values[bucket] = offer.value;
      nextFree[bucket] = bucket + 1;
    }
  }

  const dates: string[] = [];
  for (let k = 0; k < count; k += 1) dates.push(formatIsoZ(from + BigInt(k) * step));
  return { dates, values };
}

function toOffer(snapshot: SnapshotCoverage, from: Instant, to: Instant, step: bigint, count: number): Offer | null {
  const observed = readDbInstant(snapshot.observed_at);
  let start = readDbInstant(snapshot.valid_from_at ?? snapshot.observed_at);
  let end = readDbInstant(snapshot.valid_to_at ?? snapshot.observed_at);
  if (observed === null || start === null || end === null) return null;
  // The public service first selects snapshots with start <= date_to and end >= date_from, then repairs
  // reversed intervals; keep both steps so that malformed rows are treated alike.
  if (start > to || end < from) return null;
  if (end < start) [start, end] = [end, start];
  const clippedStart = start >= from ? start : from;
  const clippedEnd = end <= to ? end : to;
  if (clippedEnd < clippedStart) return null;
  const first = Number((clippedStart - from) / step);
  const last = Math.min(count - 1, Number((clippedEnd - from) / step));
  if (last < 0 || first >= count) return null;
  return { observed, id: snapshot.id, first: Math.max(0, first), last, value: asFloat(snapshot.value) };
}
