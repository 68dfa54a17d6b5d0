// Code that waits on timers for seconds (the settings lock's retries and staleness) tested without the wait:
// vitest's fake clock, moved to the next timer only while no file-system call is in flight, so that time
// passes while everyone waits, as it would for real.
import { vi } from 'vitest';

// What Node lists for a file-system call under way: by callback, by promise, and a FileHandle's close.
const FILE_SYSTEM_REQUESTS = new Set(['FSReqCallback', 'FSReqPromise', 'CloseReq']);
const inFlight = () => process.getActiveResourcesInfo().some((resource) => FILE_SYSTEM_REQUESTS.has(resource));

export interface FakeClockRun {
  outcome: PromiseSettledResult<unknown>;
  /** How long `work` took on the fake clock. */
  ms: number;
}

/**
 * Runs `work`, whose only input and output is the file system, on the fake clock (Date and timers). Modules
 * it loads lazily must be loaded before: the module loader must not wait on a fake timer.
 */
export async function onFakeClock(work: () => Promise<unknown>): Promise<FakeClockRun> {
  vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
  try {
    const started = Date.now();
    let outcome: PromiseSettledResult<unknown> | undefined;
    work().then(
      (value) => (outcome = { status: 'fulfilled', value }),
      (reason: unknown) => (outcome = { status: 'rejected', reason }),
    );
    for (;;) {
      // setImmediate stays real: each turn lets the callbacks of finished file-system calls run.
      await new Promise((resolve) => setImmediate(resolve));
      if (outcome) return { outcome, ms: Date.now() - started };
      if (!inFlight()) vi.advanceTimersToNextTimer();
    }
  } finally {
    vi.useRealTimers();
  }
}
