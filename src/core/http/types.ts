// What the HTTP core offers and takes: the client, a request's options, and an answer.
import type { Dispatcher } from 'undici';
import type { JsonOptions } from '../json/parse.js';
import type { Method, RetryWait } from './retry.js';

export interface HttpClientOptions {
  /** Name used in messages: "keys service answered 404: ...". */
  serviceName: string;
  timeoutMs?: number;
  retries?: number;
  caFile?: string;
  userAgent?: string;
  env?: NodeJS.ProcessEnv;
  debug?: (line: string) => void;
  maxResponseBytes?: number;
  /** Longest Retry-After we are willing to sleep through; longer ones fail at once with the wait in the message. */
  maxRetryAfterMs?: number;
  /** Told before each wait for a retry; the function it returns is called when the wait is over. */
  onRetryWait?: (wait: RetryWait) => () => void;
  /** Told of every answer's status line and headers as they arrive, error statuses included. */
  onHeaders?: (seen: HeadersSeen) => void;
  /** undici's proxy agent, for a proxy: openHttpClient() loads it. */
  undici?: typeof import('./undici-transport.js');
  /** For tests: a MockAgent, a fake sleep and a fixed random. */
  dispatcher?: Dispatcher;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  now?: () => number;
}

/** An answer's headers and when, by the client's clock, its request went out and they came back (epoch ms). */
export interface HeadersSeen {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  sentAt: number;
  receivedAt: number;
}

export interface RequestOptions {
  method: Method;
  url: string | URL;
  /** A function is called before every attempt (signatures carry a fresh timestamp). */
  headers?: Record<string, string> | (() => Record<string, string>);
  body?: string;
  /** DELETE only: the caller reports a 404 on a retry as "already deleted", so a retry is harmless. */
  deleteIsRetrySafe?: boolean;
  /** Statuses handed back to the caller instead of thrown (e.g. 404 for --ignore-missing). */
  accept?: number[];
  maxResponseBytes?: number;
  onRateLimited?: OnRateLimited;
}

/**
 * Told of every 429 as it comes, with its Retry-After in ms when it gave one trident waits for (readable, and
 * not over the longest wait, 60 s): a batch holds its next requests from that moment, not from when this one
 * is through (core/http/pacing.ts). A longer one is reported as none: the request fails at once, and a batch is
 * never held that long.
 */
export type OnRateLimited = (retryAfterMs: number | undefined) => void;

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** How many attempts it took (1 = no retry). */
  attempts: number;
  /**
   * An earlier attempt failed in a way that leaves open whether the service acted on it (the connection
   * dropped after sending, or an error status other than 429). A retried DELETE that then finds nothing
   * may call the thing "already deleted"; after a 429 or a connection never made it may not.
   */
  earlierAttemptMayHaveTakenEffect: boolean;
  /** An earlier attempt was refused with 429: a batch should slow down even though this one went through. */
  rateLimited: boolean;
  requestId?: string;
  text(): string;
  json<T = unknown>(options?: JsonOptions): T;
}

/** One attempt's answer; the request as a whole adds what the attempts before it tell. */
export type Answer = Omit<HttpResponse, 'earlierAttemptMayHaveTakenEffect' | 'rateLimited'>;

export interface HttpClient {
  request(options: RequestOptions): Promise<HttpResponse>;
  close(): Promise<void>;
}
