import { describe, expect, it } from 'vitest';
import { TridentError } from '../../../src/core/errors.js';
import { Pacer } from '../../../src/core/http/pacing.js';
import { batchExitCode, updateCustomers } from '../../../src/time/customer-batch.js';
import { mapInOrder } from '../../../src/time/pool.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

describe('mapInOrder', () => {
  it("keeps at most `concurrency` tasks running and yields in the items' order", async () => {
    let running = 0;
    let peak = 0;
    const delays = [30, 5, 20, 1, 10, 2, 15];
    const results = await collect(
      mapInOrder(delays, 3, async (delay, index) => {
        running += 1;
        peak = Math.max(peak, running);
        await sleep(delay);
        running -= 1;
        return index;
      }),
    );
    expect(results).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(peak).toBe(3);
  });

  it("passes a task's rejection on at its place", async () => {
    const run = collect(
      mapInOrder([1, 2], 2, async (n) => {
        if (n === 2) throw new Error('boom');
        return n;
      }),
    );
    await expect(run).rejects.toThrow('boom');
  });
});

const rows = [1, 2, 3, 4].map((id) => ({ line: id + 1, id, name: `name ${id}` }));

describe('updateCustomers', () => {
  it('gives one result per row, with the service message of failed ones, and the worst exit code', async () => {
    const client = {
      async updateCustomer(id: number, name: string) {
        if (id === 2) throw new TridentError(5, 'time service answered 404: Customer not found');
        if (id === 3) throw new TridentError(6, 'time service answered 400: name must not be empty');
        return { id, name };
      },
    };
    const outcomes = await collect(updateCustomers(client, rows, 2));
    expect(outcomes.map((o) => o.result)).toEqual([
      { line: 2, id: 1, name: 'name 1', ok: true },
      { line: 3, id: 2, name: 'name 2', ok: false, error: 'time service answered 404: Customer not found' },
      { line: 4, id: 3, name: 'name 3', ok: false, error: 'time service answered 400: name must not be empty' },
      { line: 5, id: 4, name: 'name 4', ok: true },
    ]);
    expect(batchExitCode(outcomes.map((o) => o.exitCode))).toBe(6);
    expect(batchExitCode([0, 0])).toBe(0);
  });

  it('counts each row as it is through, failed, skipped or held back by a slow row before it', async () => {
    const release: Array<() => void> = [];
    const client = {
      async updateCustomer(id: number, name: string) {
        if (id === 1) await new Promise<void>((resolve) => release.push(resolve));
        if (id === 3) throw new TridentError(5, 'time service answered 404: Customer not found');
        return { id, name };
      },
    };
    const counts: number[] = [];
    const outcomes = updateCustomers(client, rows, 2, { onRowDone: (done) => counts.push(done) });
    const first = outcomes.next();
    // Row 1 is held: rows 2 to 4 go through meanwhile, and the count says so before row 1 can be printed.
    for (let turn = 0; turn < 100 && counts.length < 3; turn += 1) await new Promise((resolve) => setImmediate(resolve));
    expect(counts).toEqual([1, 2, 3]);
    release[0]!();
    expect((await first).value).toMatchObject({ result: { line: 2, ok: true } });
    expect((await collect(outcomes)).map((o) => o.result.line)).toEqual([3, 4, 5]);
    expect(counts).toEqual([1, 2, 3, 4]);
  });

  it('skips the rows not yet sent after an authentication failure', async () => {
    const sent: number[] = [];
    const client = {
      async updateCustomer(id: number, name: string) {
        sent.push(id);
        throw new TridentError(4, 'time service answered 401: Invalid API token');
        return { id, name };
      },
    };
    const outcomes = await collect(updateCustomers(client, rows, 1));
    expect(sent).toEqual([1]);
    expect(outcomes.map((o) => o.exitCode)).toEqual([4, 4, 4, 4]);
    expect(outcomes[3]!.result.error).toContain('skipped');
  });

  it('after a 429 with Retry-After holds every row not yet sent until then, whichever worker met it; says so once', async () => {
    let now = 0;
    const started: Array<[number, number]> = [];
    const waits: number[] = [];
    const pacer = new Pacer({
      now: () => now,
      random: () => 1,
      sleep: async (ms) => {
        waits.push(ms);
        now += ms;
      },
    });
    const client = {
      async updateCustomer(id: number, name: string, onRateLimited?: (ms: number | undefined) => void) {
        started.push([id, now]);
        // row 1 meets a 429 that asks for 3 s (the core then retries it, which this stand-in skips)
        if (id === 1) onRateLimited?.(3000);
        await sleep(1);
        return { id, name };
      },
    };
    const notes: string[] = [];
    const eight = Array.from({ length: 8 }, (_, i) => ({ row: i + 1, line: i + 2, id: i + 1, name: `name ${i + 1}` }));
    const outcomes = await collect(updateCustomers(client, eight, 2, { pacer, onFirstRateLimit: () => notes.push('429') }));
    expect(outcomes.every((o) => o.result.ok)).toBe(true);
    expect(notes).toEqual(['429']);
    // rows 1 and 2 went at once; every later row only after the 3 s asked for
    expect(
      started
        .filter(([, at]) => at < 3000)
        .map(([id]) => id)
        .sort(),
    ).toEqual([1, 2]);
    expect(started.map(([id]) => id).sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // and every 429 widens the gap too (backing off, jittered), easing off as rows go through
    expect(pacer.gap).toBeGreaterThan(0);
    expect(pacer.gap).toBeLessThan(500);
  });

  it('after a 429 without Retry-After spaces the rows that follow, and eases off as rows go through', async () => {
    const waits: number[] = [];
    const pacer = new Pacer({ random: () => 1, sleep: async (ms) => void waits.push(ms) });
    const client = {
      async updateCustomer(id: number, name: string, onRateLimited?: (ms: number | undefined) => void) {
        if (id === 1) onRateLimited?.(undefined);
        return { id, name };
      },
    };
    await collect(updateCustomers(client, rows, 1, { pacer }));
    expect(waits).toEqual([500, 450, 405]);
  });
});
