import { describe, expect, it } from 'vitest';
import { skewSeconds, skewWarning } from '../../../src/status/clock.js';

const at = (iso: string) => Date.parse(iso);
const seen = (date: string | string[] | undefined, sent: string, received: string) => ({
  status: 200,
  headers: { date },
  sentAt: at(sent),
  receivedAt: at(received),
});

describe('clock skew from a Date header', () => {
  it('takes the middle of the second the header names against the middle of the round trip', () => {
    expect(skewSeconds(seen('Wed, 25 Nov 2026 23:00:10 GMT', '2026-11-25T23:00:00.000Z', '2026-11-25T23:00:00.200Z'))).toBe(10);
    expect(skewSeconds(seen('Wed, 25 Nov 2026 22:58:00 GMT', '2026-11-25T23:00:00.000Z', '2026-11-25T23:00:00.100Z'))).toBe(-120);
    // A clock in step: the header's second holds our midpoint.
    expect(skewSeconds(seen('Wed, 25 Nov 2026 23:00:00 GMT', '2026-11-25T23:00:00.300Z', '2026-11-25T23:00:00.500Z'))).toBe(0);
    expect(Object.is(skewSeconds(seen('Wed, 25 Nov 2026 23:00:00 GMT', '2026-11-25T23:00:00.800Z', '2026-11-25T23:00:00.900Z')), 0)).toBe(
      true,
    );
  });

  it('is unknown without a readable header; a repeated header counts by its first value', () => {
    expect(skewSeconds(seen(undefined, '2026-11-25T23:00:00Z', '2026-11-25T23:00:00Z'))).toBeUndefined();
    expect(skewSeconds(seen('soon', '2026-11-25T23:00:00Z', '2026-11-25T23:00:00Z'))).toBeUndefined();
    expect(skewSeconds(seen(['Wed, 25 Nov 2026 23:01:00 GMT', 'x'], '2026-11-25T23:00:00Z', '2026-11-25T23:00:00Z'))).toBe(61);
  });

  it('warns past 5 s either way, and only then', () => {
    expect(skewWarning('keys', 5)).toBeUndefined();
    expect(skewWarning('keys', -5)).toBeUndefined();
    expect(skewWarning('keys', null)).toBeUndefined();
    expect(skewWarning('keys', 6)).toMatch(
      /^the keys service's clock is 6 s ahead of this machine's: the keys service refuses a signature/,
    );
    expect(skewWarning('time', -6)).toMatch(/^the time service's clock is 6 s behind this machine's: .*set this machine's clock right/);
  });
});
