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

/** A wait before the next attempt, as a person at a terminal is told of it. */
export interface RetryWait {
  /** What went wrong: the status ("503") or the network's words ("connection refused"). */
  why: string;
  /** The attempt that follows the wait, and how many there can be. */
  next: number;
  attempts: number;
  ms: number;
}

/** "503: attempt 2 of 4 in 2 s" */
export function retryWaitText({ why, next, attempts, ms }: RetryWait): string {
  // Whole seconds from about one on, so that a countdown reads 2 s, 1 s, not 1.0 s.
  const seconds = ms < 950 ? (ms / 1000).toFixed(1) : String(Math.round(ms / 1000));
  return `${why}: attempt ${next} of ${attempts} in ${seconds} s`;
}

const NETWORK_WORDS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection reset',
  ENOTFOUND: 'unknown host',
  EAI_AGAIN: 'unknown host',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  TRIDENT_DEADLINE: 'no answer in time',
  UND_ERR_CONNECT_TIMEOUT: 'no answer in time',
  UND_ERR_HEADERS_TIMEOUT: 'no answer in time',
  UND_ERR_BODY_TIMEOUT: 'no answer in time',
  UND_ERR_SOCKET: 'connection closed',
};

/** What made an attempt fail, in a few words: its status, else what the network said (the error's cause). */
export function failureWords(failure: Failure, cause: unknown): string {
  if (failure.kind === 'status') return String(failure.status);
  const error = cause as { code?: string; cause?: { code?: string } } | undefined;
  const code = error?.code ?? error?.cause?.code;
  return (code !== undefined ? NETWORK_WORDS[code] : undefined) ?? 'connection failed';
}
