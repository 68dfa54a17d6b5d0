// When a failed request may be sent again (only where repeating cannot do harm), and how long to wait first:
// exponential backoff with jitter, honouring Retry-After up to a cap.

/** The clients send GET, POST and DELETE; `trident api` sends whatever method it is given. */
export type Method = 'GET' | 'POST' | 'DELETE' | (string & {});

/** Methods that only read: sending one again cannot do harm. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * POST, PUT, PATCH and any method not known to only read may create or change something, and a failure after
 * it was sent leaves open whether it did. (DELETE has a rule of its own: see mayRetry.)
 */
export function mayAct(method: Method): boolean {
  return !READS.has(method) && method !== 'DELETE';
}

/** What we know about a failed attempt. */
export type Failure =
  | { kind: 'status'; status: number; retryAfter?: string }
  /** The connection was never made: the server cannot have seen the request. */
  | { kind: 'not-sent' }
  /** The request may have reached the server (reset, timeout, truncated answer). */
  | { kind: 'unknown' }
  /** Repeating cannot help (a certificate error, an answer over the size cap). */
  | { kind: 'fatal' };

const RETRIABLE_STATUS = new Set([429, 500, 502, 503, 504]);

/**
 * GET (and the other reads) always; DELETE when the request never left, or when the caller treats a 404 on the
 * retry as "already deleted"; POST, PUT, PATCH and the rest only on 429 (refused, not processed) or a connection
 * that was never made.
 */
export function mayRetry(method: Method, failure: Failure, deleteIsRetrySafe = false): boolean {
  if (failure.kind === 'fatal') return false;
  if (failure.kind === 'not-sent') return true;
  if (failure.kind === 'status' && !RETRIABLE_STATUS.has(failure.status)) return false;
  if (READS.has(method)) return true;
  if (method === 'DELETE') return deleteIsRetrySafe;
  return failure.kind === 'status' && failure.status === 429;
}

/** Milliseconds to wait from a Retry-After header (delta-seconds or an HTTP-date), or undefined if absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  // A number too big for a double is still "a very long wait", not Infinity.
  if (/^\d+$/.test(trimmed)) return Math.min(Number(trimmed) * 1000, Number.MAX_SAFE_INTEGER);
  if (!/[a-z]/i.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** Exponential backoff with full jitter: a random wait in [0, min(cap, base·2^attempt)]. */
export function backoffMs(attempt: number, random: () => number, baseMs = 250, capMs = 8000): number {
  return Math.round(random() * Math.min(capMs, baseMs * 2 ** attempt));
}
