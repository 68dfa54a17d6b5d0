// The exchange's rate limits: a token bucket per class, reads (GET) and writes (everything else); an empty
// bucket answers 429 `{"error":"too many requests"}` with no Retry-After, as the exchange does.
import { json, type SandboxResponse } from '../http/server.js';

export interface RateLimit {
  /** Requests per second; the documented Basic tier is 20 reads and 10 writes. */
  readPerSecond: number;
  writePerSecond: number;
  /** How many requests of a class may come at once after a quiet spell; default one second's worth. */
  burst?: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

export class RateLimiter {
  private readonly buckets = new Map<'read' | 'write', Bucket>();

  constructor(
    private readonly limit: RateLimit,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** A 429 when the request's class has no token left, else undefined (and a token is taken). */
  check(method: string): SandboxResponse | undefined {
    const kind = method.toUpperCase() === 'GET' ? 'read' : 'write';
    const perSecond = kind === 'read' ? this.limit.readPerSecond : this.limit.writePerSecond;
    const capacity = this.limit.burst ?? perSecond;
    const now = this.now();
    const bucket = this.buckets.get(kind) ?? { tokens: capacity, at: now };
    bucket.tokens = Math.min(capacity, bucket.tokens + ((now - bucket.at) / 1000) * perSecond);
    bucket.at = now;
    this.buckets.set(kind, bucket);
    if (bucket.tokens < 1) return json(429, { error: 'too many requests' });
    bucket.tokens -= 1;
    return undefined;
  }
}
