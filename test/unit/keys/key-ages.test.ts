// <config dir>/key-ages.json is read, changed and written by every command that makes, uses or deletes a key:
// two of them at once (parallel CI jobs on one config dir) must both keep their change.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agesFile, forgetKey, recordKeyInUse, recordKeyMade } from '../../../src/keys/key-ages.js';
import { testContext } from '../../helpers/context.js';
import { onFakeClock } from '../../helpers/fake-clock.js';

const ids = Array.from({ length: 12 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);

describe('the key-age record', () => {
  // The updates wait for each other's lock with backoffs: on the fake clock, without sleeping.
  it('keeps every change of updates made at once', async () => {
    const { ctx } = testContext();
    // What the lock loads lazily.
    await import('../../../src/core/files/settings-lock.js');
    const made = await onFakeClock(() => Promise.all(ids.map((id, i) => (i % 2 ? recordKeyMade(ctx, id) : recordKeyInUse(ctx, id)))));
    expect(made.outcome.status).toBe('fulfilled');
    const records = JSON.parse(readFileSync(agesFile(ctx), 'utf8')) as Record<string, { how: string }>;
    expect(Object.keys(records).sort()).toEqual(ids);
    expect(ids.map((id) => records[id]!.how)).toEqual(ids.map((_, i) => (i % 2 ? 'made' : 'seen')));
    const forgotten = await onFakeClock(() => Promise.all(ids.slice(0, 6).map((id) => forgetKey(ctx, id))));
    expect(forgotten.outcome.status).toBe('fulfilled');
    expect(Object.keys(JSON.parse(readFileSync(agesFile(ctx), 'utf8'))).sort()).toEqual(ids.slice(6));
  });

  it('is not written, nor locked, when a key in use is known already', async () => {
    const { ctx } = testContext();
    await recordKeyInUse(ctx, ids[0]!);
    const before = readFileSync(agesFile(ctx), 'utf8');
    // A live holder of the settings lock (this process): a call that took it would wait for it for 20 s.
    writeFileSync(join(ctx.configDir, 'settings.json.lock'), `${process.pid}\n`);
    const { outcome, ms } = await onFakeClock(() => recordKeyInUse(ctx, ids[0]!));
    expect(outcome.status).toBe('fulfilled');
    expect(ms).toBe(0);
    expect(readFileSync(agesFile(ctx), 'utf8')).toBe(before);
  });
});
