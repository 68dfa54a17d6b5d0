// Client-side checks that mirror the public catalog service's own rules (its enums, a page of 1 to 100 items,
// at most 20000 dynamics points, times with an offset), so that what it would refuse is refused first, with
// exit 2 and no request sent.
import { usageError } from '../core/errors.js';
import { isoWithOffset, microsOf, type TimeRange } from './time-range.js';

export const DYNAMICS_FIELDS = ['price', 'discount_price', 'loyal_price', 'available_count'] as const;
export type DynamicsField = (typeof DYNAMICS_FIELDS)[number];

export const INTERVAL_MS = { '1h': 3_600_000, '6h': 6 * 3_600_000, '1d': 24 * 3_600_000, '7d': 7 * 24 * 3_600_000 } as const;
export type Interval = keyof typeof INTERVAL_MS;
export const INTERVALS = Object.keys(INTERVAL_MS) as Interval[];

export const MAX_POINTS = 20_000;
export const MAX_PAGE = 100;

export const PRODUCT_SORTS = ['observed_at_desc', 'observed_at_asc', 'price_asc', 'price_desc', 'rating_desc'] as const;
export const OBSERVED_SORTS = ['observed_at_desc', 'observed_at_asc'] as const;
export const SCOPES = ['stores', 'regions'] as const;

/** One of the service's enum values; undefined (option not given) stays undefined. */
export function oneOf<T extends string>(value: string, allowed: readonly T[], flag: string): T;
export function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], flag: string): T | undefined;
export function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], flag: string): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value))
    throw usageError(`invalid ${flag} "${value}": expected one of ${allowed.join(', ')}`);
  return value as T;
}

/** A whole number within bounds; undefined stays undefined. */
export function integer(value: string | undefined, flag: string, bounds: { min?: number; max?: number } = {}): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  const parsed = Number(trimmed);
  const { min, max } = bounds;
  const range = min !== undefined && max !== undefined ? ` from ${min} to ${max}` : min !== undefined ? ` of at least ${min}` : '';
  if (
    !/^[+-]?\d+$/.test(trimmed) ||
    !Number.isSafeInteger(parsed) ||
    (min !== undefined && parsed < min) ||
    (max !== undefined && parsed > max)
  ) {
    throw usageError(`invalid ${flag} "${value}": expected a whole number${range}`);
  }
  return parsed;
}

export function decimal(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value.trim());
  if (value.trim() === '' || !Number.isFinite(parsed)) throw usageError(`invalid ${flag} "${value}": expected a number`);
  return parsed;
}

export const pageLimit = (value: string | undefined) => integer(value, '--limit', { min: 1, max: MAX_PAGE });
export const pageOffset = (value: string | undefined) => integer(value, '--offset', { min: 0 });

/** A product id goes into the path: it must not be empty (that would be the list route). */
export function productId(value: string): string {
  if (value.trim() === '') throw usageError('the product id is empty');
  return value;
}

/** Category and settlement ids are integers for the service (anything else is its 422). */
export function integerId(value: string, what: string): number {
  if (!/^[+-]?\d+$/.test(value.trim()) || !Number.isSafeInteger(Number(value))) {
    throw usageError(`invalid ${what} id "${value}": expected a whole number`);
  }
  return Number(value);
}

/** Points of a series: one at `from`, then one every step up to `to` (n = floor((to − from)/step) + 1). */
export function pointCount(range: TimeRange, interval: Interval): number {
  const span = microsOf(range.to) - microsOf(range.from);
  const step = BigInt(INTERVAL_MS[interval]) * 1000n;
  const whole = span >= 0n ? span / step : -((-span + step - 1n) / step);
  return Number(whole) + 1;
}

export function checkRange(range: TimeRange, interval: Interval): void {
  const from = isoWithOffset(range.from);
  const to = isoWithOffset(range.to);
  if (microsOf(range.from) > microsOf(range.to)) throw usageError(`--from ${from} is after --to ${to}`);
  const points = pointCount(range, interval);
  if (points > MAX_POINTS) {
    throw usageError(
      `${from} to ${to} every ${interval} is ${points} points; the service allows at most ${MAX_POINTS}`,
      'shorten the range with --from/--to, or use a longer --interval',
    );
  }
}

/** An option the service requires; commander's requiredOption would not reach run() in tests. */
export function required<T extends string>(value: T | undefined, flag: string, what: string): T {
  if (value === undefined || value.trim() === '') throw usageError(`${flag} is required: ${what}`);
  return value;
}
