// How a batch of requests (keys delete of many keys, customer-update --from-csv) spaces itself: at full speed
// until the service answers 429, then with a wait before each next request that doubles with every further 429
// and eases off while requests go through, jittered like the retries' backoff. A 429 with a Retry-After also
// holds every next request until that time (the exchange sends none; the time tracker may). A batch sends each
// request through paced(), which does all of this.
import type { OnRateLimited } from './client.js';

export interface PacerOptions {
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  random?: () => number;
  /** The wait after the first 429. */
  firstGapMs?: number;
  maxGapMs?: number;
  /** The factor the wait shrinks by after a request that was not rate limited. */
  ease?: number;
}

export class Pacer {
  private gapMs = 0;
  private resumeAt = 0;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly firstGapMs: number;
  private readonly maxGapMs: number;
  private readonly ease: number;

  constructor(options: PacerOptions = {}) {
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
    this.firstGapMs = options.firstGapMs ?? 500;
    this.maxGapMs = options.maxGapMs ?? 8000;
    this.ease = options.ease ?? 0.9;
  }

  /** The current gap: 0 until a request was rate limited. */
  get gap(): number {
    return this.gapMs;
  }

  /**
   * Before each request: waits out a Retry-After (and one that another request met meanwhile), then between half
   * the gap and the whole of it.
   */
  async beforeNext(): Promise<void> {
    for (let held = this.resumeAt - this.now(); held > 0; held = this.resumeAt - this.now()) await this.sleep(held);
    if (this.gapMs > 0) await this.sleep(Math.round(this.gapMs / 2 + (this.random() * this.gapMs) / 2));
  }

  /** A 429 said when to come back: no next request before then. */
  holdFor(retryAfterMs: number): void {
    this.resumeAt = Math.max(this.resumeAt, this.now() + retryAfterMs);
  }

  /**
   * One request of a batch: waits its turn, sends it with a listener for its 429s (one with a Retry-After holds the
   * whole batch), then widens or eases the gap. `heard` is told of each 429 too (for the batch's note).
   */
  async paced<T>(send: (onRateLimited: OnRateLimited) => Promise<T>, heard?: () => void): Promise<T> {
    await this.beforeNext();
    let rateLimited = false;
    try {
      return await send((retryAfterMs) => {
        rateLimited = true;
        if (retryAfterMs !== undefined) this.holdFor(retryAfterMs);
        heard?.();
      });
    } finally {
      this.record(rateLimited);
    }
  }

  /** After each request: whether the service answered 429 to any of its attempts. */
  record(rateLimited: boolean): void {
    if (rateLimited) this.gapMs = Math.min(this.maxGapMs, Math.max(this.firstGapMs, this.gapMs * 2));
    else this.gapMs = Math.round(this.gapMs * this.ease);
  }
}
