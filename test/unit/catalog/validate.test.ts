import { describe, expect, it } from 'vitest';
import { dynamicsWindow, type DynamicsOptions } from '../../../src/catalog/commands/dynamics.js';
import { productQuery } from '../../../src/catalog/commands/products.js';
import { checkRange, integer, integerId, pageLimit, pageOffset, pointCount, productId } from '../../../src/catalog/validate.js';
import { parseTime } from '../../../src/catalog/time-range.js';
import { usageError } from './helpers.js';

const NOW = new Date('2026-03-01T00:00:00Z');
const range = (from: string, to: string) => ({ from: new Date(from), to: new Date(to) });

const usageMessage = (fn: () => unknown): string => usageError(fn).message;

describe('point counting', () => {
  it('is floor((to - from) / step) + 1', () => {
    expect(pointCount(range('2026-02-01T00:00:00Z', '2026-02-01T00:00:00Z'), '1h')).toBe(1);
    expect(pointCount(range('2026-02-01T00:00:00Z', '2026-02-03T23:59:59Z'), '1d')).toBe(3);
    expect(pointCount(range('2026-02-01T00:00:00Z', '2026-02-01T20:00:00Z'), '6h')).toBe(4);
    expect(pointCount(range('2026-02-01T00:00:00Z', '2026-02-02T00:00:00Z'), '1h')).toBe(25);
    expect(pointCount(range('2026-01-01T00:00:00Z', '2026-01-15T00:00:00Z'), '7d')).toBe(3);
  });

  it('allows exactly 20000 points and refuses one more', () => {
    const start = Date.UTC(2024, 0, 1);
    const last = new Date(start + 19_999 * 3_600_000);
    expect(() => checkRange({ from: new Date(start), to: last }, '1h')).not.toThrow();
    const over = new Date(last.getTime() + 3_600_000);
    expect(usageMessage(() => checkRange({ from: new Date(start), to: over }, '1h'))).toBe(
      `2024-01-01T00:00:00.000Z to ${over.toISOString()} every 1h is 20001 points; the service allows at most 20000`,
    );
  });

  it('refuses --from after --to, and takes equal ones as one point', () => {
    expect(usageMessage(() => checkRange(range('2026-02-02T00:00:00Z', '2026-02-01T00:00:00Z'), '1d'))).toBe(
      '--from 2026-02-02T00:00:00.000Z is after --to 2026-02-01T00:00:00.000Z',
    );
    expect(() => checkRange(range('2026-02-01T00:00:00Z', '2026-02-01T00:00:00Z'), '1d')).not.toThrow();
  });
});

describe('dynamicsWindow', () => {
  const base: DynamicsOptions = { field: 'price', interval: '1d' };

  it('builds the service query with ISO dates carrying an offset', () => {
    expect(dynamicsWindow({ ...base, from: '2026-02-01T03:00:00+03:00', to: '2026-02-03' }, NOW)).toEqual({
      field: 'price',
      interval: '1d',
      date_from: '2026-02-01T00:00:00.000Z',
      date_to: '2026-02-03T00:00:00.000Z',
    });
    expect(dynamicsWindow(base, NOW)).toMatchObject({ date_from: '2026-01-30T00:00:00.000Z', date_to: '2026-03-01T00:00:00.000Z' });
  });

  it('sends times at full precision: microseconds are not rounded to milliseconds', () => {
    expect(
      dynamicsWindow({ ...base, interval: '1h', from: '2026-02-01T00:00:00.123456Z', to: '20260201T020000.000001+0000' }, NOW),
    ).toMatchObject({
      date_from: '2026-02-01T00:00:00.123456Z',
      date_to: '2026-02-01T02:00:00.000001Z',
    });
    // 00:00:00.000001 to 01:00:00 is one microsecond short of an hour: one point, not two.
    expect(
      pointCount(
        { from: parseTime('2026-02-01T00:00:00.000001Z', '--from', NOW), to: parseTime('2026-02-01T01:00:00Z', '--to', NOW) },
        '1h',
      ),
    ).toBe(1);
    expect(
      pointCount(
        { from: parseTime('2026-02-01T00:00:00.000001Z', '--from', NOW), to: parseTime('2026-02-01T01:00:00.000001Z', '--to', NOW) },
        '1h',
      ),
    ).toBe(2);
  });

  it('refuses whatever the service would refuse', () => {
    expect(usageMessage(() => dynamicsWindow({ ...base, from: '2026-02-01T10:00' }, NOW))).toContain('has no UTC offset');
    expect(usageMessage(() => dynamicsWindow({ ...base, from: '-1d', to: '-2d' }, NOW))).toMatch(/^--from .* is after --to /);
    expect(usageMessage(() => dynamicsWindow({ ...base, interval: '1h', from: '2023-01-01' }, NOW))).toMatch(
      /is \d+ points; the service allows at most 20000$/,
    );
  });

  it('without --interval takes the finest one giving at most 1000 points', () => {
    expect(dynamicsWindow({ field: 'price' }, NOW)).toMatchObject({ field: 'price', interval: '1h' });
    expect(dynamicsWindow({ field: 'price', from: '-100d' }, NOW)).toMatchObject({ interval: '6h' });
    expect(dynamicsWindow({ field: 'price', from: '-52w' }, NOW).interval).toBe('1d');
    expect(dynamicsWindow({ field: 'price', from: '2000-01-01' }, NOW).interval).toBe('7d');
  });
});

describe('list and id checks', () => {
  it('takes --limit from 1 to 100 and --offset from 0', () => {
    expect(pageLimit('1')).toBe(1);
    expect(pageLimit('100')).toBe(100);
    expect(pageLimit(undefined)).toBeUndefined();
    for (const bad of ['0', '101', '-1', '2.5', 'ten', ''])
      expect(usageMessage(() => pageLimit(bad))).toBe(`invalid --limit "${bad}": expected a whole number from 1 to 100`);
    expect(pageOffset('0')).toBe(0);
    expect(pageOffset('5000')).toBe(5000);
    expect(usageMessage(() => pageOffset('-1'))).toBe('invalid --offset "-1": expected a whole number of at least 0');
    expect(usageMessage(() => pageOffset('99999999999999999999'))).toContain('invalid --offset');
  });

  it('checks product filters', () => {
    expect(
      productQuery({
        search: 'milk',
        store: 'fixprice',
        category: '7',
        settlement: '2',
        promo: false,
        priceMin: '10',
        priceMax: '99.5',
        sort: 'price_asc',
      }),
    ).toEqual({
      q: 'milk',
      parser_name: 'fixprice',
      category_id: 7,
      settlement_id: 2,
      brand: undefined,
      promo: false,
      price_min: 10,
      price_max: 99.5,
      sort: 'price_asc',
    });
    expect(productQuery({ isNew: true, hit: false, adult: false })).toMatchObject({ is_new: true, hit: false, adult: false });
    expect(productQuery({})).not.toHaveProperty('is_new', expect.anything());
    expect(usageMessage(() => productQuery({ category: 'dairy' }))).toBe('invalid --category "dairy": expected a whole number');
    expect(usageMessage(() => productQuery({ settlement: '1.5' }))).toBe('invalid --settlement "1.5": expected a whole number');
    expect(usageMessage(() => productQuery({ priceMin: 'cheap' }))).toBe('invalid --price-min "cheap": expected a number');
    expect(usageMessage(() => productQuery({ priceMax: '' }))).toBe('invalid --price-max "": expected a number');
  });

  it('checks ids', () => {
    expect(integerId('12', 'category')).toBe(12);
    expect(usageMessage(() => integerId('abc', 'category'))).toBe('invalid category id "abc": expected a whole number');
    expect(usageMessage(() => integerId('1e3', 'settlement'))).toBe('invalid settlement id "1e3": expected a whole number');
    expect(productId('prod-1')).toBe('prod-1');
    expect(usageMessage(() => productId('  '))).toBe('the product id is empty');
    expect(integer('-2', '--depth')).toBe(-2);
  });
});
