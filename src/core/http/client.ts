// The one HTTP core: keep-alive connections, one deadline per attempt, a response size cap, retries only where
// repeating cannot do harm, errors mapped to exit codes, and --debug logging with secrets redacted. Requests go
// over Node's http/https (node-transport.ts) unless they need undici: through a proxy, or pipelined. Imported
// lazily: only commands that talk to a service pay for it.
import type { Dispatcher } from 'undici';
import { answerJson } from './answer-json.js';
import { DeadlineExceeded, startDeadline } from './attempt-deadline.js';
import { readCa } from './ca.js';
import { ConnectionWatch } from './connection-watch.js';
import { ExitCode, TridentError, usageError } from '../errors.js';
import type { JsonOptions } from '../json/parse.js';
import { headerValue, networkFailure, redirectError, statusError, type AttemptFailure } from './failures.js';
import { checkProxies, proxiesFrom, proxyFor } from './proxies.js';
import { debugBody, redactHeaders, redactText, redactUrlText } from './redact.js';
import { backoffMs, mayRetry, parseRetryAfter, type Method } from './retry.js';
import { nodeTransport } from './node-transport.js';
import { fromDispatcher, isPipelined, type Transport, type TransportResponse } from './transport.js';

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
  /**
   * Requests sent on one connection before the earlier answers are in (HTTP/1.1 pipelining). Only for
   * services where every request is a GET (the catalog): undici never pipelines behind a non-idempotent one,
   * but a write should not wait behind a slow read either. Such a client also keeps to one connection.
   */
  pipelining?: number;
  /** undici's pools, for a proxy or pipelining: openHttpClient() loads them. */
  undici?: typeof import('./undici-transport.js');
  /** For tests: a MockAgent, a fake sleep and a fixed random. */
  dispatcher?: Dispatcher;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  now?: () => number;
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
type Answer = Omit<HttpResponse, 'earlierAttemptMayHaveTakenEffect' | 'rateLimited'>;

export interface HttpClient {
  request(options: RequestOptions): Promise<HttpResponse>;
  close(): Promise<void>;
}

const DEFAULT_TIMEOUT_MS = 30_000;
/**
 * Every answer is JSON read whole into memory, and parsing costs about ten times its size: a 16 MiB cap keeps
 * a runaway answer under ~200 MB of memory, while the largest legitimate ones stay far below it (a catalog
 * page of 100 rows or a 20000-point series is about 1 MB; the unpaged project list of the time tracker would
 * need some 25000 projects). TRIDENT_MAX_RESPONSE_MB raises it (see context.ts).
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
/** Longer request URLs are refused by common servers (nginx and uvicorn stop at 8 KiB request lines). */
export const MAX_URL_LENGTH = 8192;
const REQUEST_ID_HEADERS = ['x-request-id', 'request-id', 'x-amzn-requestid', 'cf-ray'];

class ResponseTooLarge extends Error {}

/** The client for a command: undici is loaded only for pipelining or when HTTPS_PROXY or HTTP_PROXY is set. */
export async function openHttpClient(options: HttpClientOptions): Promise<HttpClient> {
  if (options.dispatcher) return createHttpClient(options);
  const proxied = proxiesFrom(options.env ?? process.env) !== undefined;
  return createHttpClient({
    ...options,
    ...(proxied || isPipelined(options.pipelining) ? { undici: await import('./undici-transport.js') } : {}),
  });
}

type Route = 'direct' | 'proxied';

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const retries = options.retries ?? 3;
  const proxies = options.dispatcher ? undefined : proxiesFrom(options.env ?? process.env);
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
  const log = options.debug;
  const ca = options.dispatcher ? undefined : readCa(options.caFile);
  // One transport for the direct route (this machine, or no proxy set) and one through the proxy, each with the
  // watch on its connections; made when first needed, and made afresh after one was torn down (reset()).
  const routes: Partial<Record<Route, { transport: Transport; watch: ConnectionWatch }>> = {};
  /** Torn down with requests still queued in it: close() must not wait for them. */
  let abandoned = false;
  const routeFor = (route: Route): { transport: Transport; watch: ConnectionWatch } => {
    if (options.dispatcher) return (routes[route] ??= { transport: fromDispatcher(options.dispatcher), watch: new ConnectionWatch() });
    if (route === 'proxied') checkProxies(proxies!);
    if (!routes[route]) {
      const watch = new ConnectionWatch();
      routes[route] = { watch, transport: makeTransport(route, watch) };
    }
    return routes[route];
  };
  const makeTransport = (route: Route, watch: ConnectionWatch): Transport => {
    if (route === 'direct' && !isPipelined(options.pipelining)) return nodeTransport(ca, watch);
    if (!options.undici) throw new Error('undici is needed (a proxy or pipelining): open the HTTP client with openHttpClient()');
    return options.undici.undiciTransport({ timeoutMs, ca, proxies: route === 'proxied' ? proxies : undefined, watch, pipelining: options.pipelining });
  };
  /** Ends every connection of a route, also one still being made (undici 7 cannot abort those). */
  const reset = (route: Route): void => {
    const old = options.dispatcher ? undefined : routes[route];
    if (!old) return;
    delete routes[route];
    abandoned = true;
    old.transport.destroy().catch(() => undefined);
  };

  async function attempt(req: RequestOptions, url: URL, number: number): Promise<Answer | AttemptFailure> {
    const headers: Record<string, string> = {
      'user-agent': options.userAgent ?? 'trident-cli',
      accept: 'application/json',
      ...(typeof req.headers === 'function' ? req.headers() : req.headers),
    };
    const started = now();
    log?.(`> ${req.method} ${redactUrlText(url.href)}${number > 1 ? ` (attempt ${number})` : ''}`);
    log?.(`> headers ${JSON.stringify(redactHeaders(headers))}`);
    if (req.body !== undefined) log?.(`> body ${redactText(req.body)}`);
    const proxy = proxyFor(proxies, url);
    const route: Route = proxy ? 'proxied' : 'direct';
    const { transport, watch } = routeFor(route);
    const reading = { started: false, bytes: 0, expected: undefined as string | undefined };
    const deadline = startDeadline(timeoutMs, () => (reading.started ? 'reading the answer' : watch.isConnected(url.origin) ? 'waiting for the answer' : 'connecting'));
    // A connection that cannot be made, while none is open, ends the attempt: undici would keep the request
    // queued and connect again at once, for ever. (With one open, this request may be on it already.)
    let cannotConnect = false;
    const stopWatching = watch.onConnectionError(url.origin, (error) => {
      if (watch.isConnected(url.origin)) return;
      cannotConnect = true;
      deadline.fail(error);
    });
    try {
      let response: TransportResponse;
      try {
        const sent = transport.request({ origin: url.origin, path: `${url.pathname}${url.search}`, method: req.method, headers, body: req.body, signal: deadline.signal, onDeadline: deadline.onExpired });
        sent.catch(() => undefined);
        response = await deadline.race(sent);
      } catch (error) {
        // A request still waiting for its connection cannot be aborted in undici 7: end the connecting.
        if (cannotConnect || (error instanceof DeadlineExceeded && error.stage === 'connecting')) reset(route);
        return networkFailure(error, url, req.method, { proxy, timeoutMs });
      }
      stopWatching();
      reading.started = true;
      reading.expected = headerValue(response.headers['content-length']);
      let body: Buffer;
      try {
        body = await deadline.race(readCapped(response.body, req.maxResponseBytes ?? options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES, reading));
      } catch (error) {
        response.body.destroy();
        if (error instanceof ResponseTooLarge) {
          return {
            failure: { kind: 'fatal' },
            error: new TridentError(ExitCode.unavailable, `the answer from ${url.host} is larger than ${error.message}; stopped reading`, {
              status: response.statusCode,
              hint: 'check the URL; if such an answer is expected, raise the cap with TRIDENT_MAX_RESPONSE_MB',
            }),
          };
        }
        return networkFailure(error, url, req.method, { duringBody: reading, proxy, timeoutMs });
      }
      log?.(`< ${response.statusCode} (${now() - started} ms) ${debugBody(body.toString('utf8'))}`);
      const result = toResponse(response, body, number, options.serviceName);
      if (req.accept?.includes(response.statusCode)) return result;
      if (response.statusCode >= 300 && response.statusCode < 400) {
        return { failure: { kind: 'fatal' }, error: redirectError(result, options.serviceName, req.method) };
      }
      if (response.statusCode < 400) return result;
      return {
        failure: { kind: 'status', status: response.statusCode, retryAfter: headerValue(response.headers['retry-after']) },
        error: statusError(result, options.serviceName, req.method, now()),
      };
    } finally {
      stopWatching();
      deadline.clear();
    }
  }

  return {
    async request(req) {
      const url = typeof req.url === 'string' ? new URL(req.url) : req.url;
      if (url.href.length > MAX_URL_LENGTH) {
        throw usageError(
          `the request URL would be ${url.href.length} characters long; services refuse URLs over ${MAX_URL_LENGTH}`,
          'shorten the values that go into the URL (ids, --search and other filters)',
        );
      }
      let mayHaveTakenEffect = false;
      let rateLimited = false;
      for (let number = 1; ; number += 1) {
        const outcome = await attempt(req, url, number);
        if (!('failure' in outcome)) return { ...outcome, earlierAttemptMayHaveTakenEffect: mayHaveTakenEffect, rateLimited };
        const { failure, error } = outcome;
        if (failure.kind === 'unknown' || (failure.kind === 'status' && failure.status !== 429)) mayHaveTakenEffect = true;
        const fromHeader = failure.kind === 'status' ? parseRetryAfter(failure.retryAfter, now()) : undefined;
        // A wait longer than trident ever waits fails the request instead: no one is told to wait that long.
        const honoured = fromHeader !== undefined && fromHeader <= maxRetryAfterMs ? fromHeader : undefined;
        if (failure.kind === 'status' && failure.status === 429) {
          rateLimited = true;
          req.onRateLimited?.(honoured);
        }
        if (number > retries || !mayRetry(req.method, failure, req.deleteIsRetrySafe)) throw error;
        if (fromHeader !== undefined && honoured === undefined) throw error;
        const waitMs = honoured ?? backoffMs(number - 1, random);
        log?.(`retrying in ${waitMs} ms (${error.message})`);
        await sleep(waitMs);
      }
    },
    async close() {
      if (options.dispatcher) return;
      const open = Object.values(routes).map((route) => route.transport);
      await Promise.all(open.map((transport) => (abandoned ? transport.destroy() : transport.close())));
    },
  };
}

/** 16777216 → "16 MiB"; 1000 → "1000 bytes". */
function byteSize(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

/** The whole body, counted into `progress` as it comes; a Content-Length over the cap is refused unread. */
async function readCapped(body: TransportResponse['body'], max: number, progress: { bytes: number; expected?: string }): Promise<Buffer> {
  if (Number(progress.expected) > max) throw new ResponseTooLarge(byteSize(max));
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    progress.bytes = size;
    if (size > max) {
      body.destroy();
      throw new ResponseTooLarge(byteSize(max));
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function toResponse(response: TransportResponse, body: Buffer, attempts: number, serviceName: string): Answer {
  const headers = response.headers;
  const requestId = REQUEST_ID_HEADERS.map((name) => headerValue(headers[name])).find(Boolean);
  return {
    status: response.statusCode,
    headers,
    body,
    attempts,
    requestId,
    text: () => body.toString('utf8'),
    json<T>(options?: JsonOptions) {
      return answerJson(body.toString('utf8'), serviceName, { status: response.statusCode, requestId }, options) as T;
    },
  };
}
