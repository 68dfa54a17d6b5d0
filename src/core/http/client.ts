// The one HTTP core: keep-alive connections, one deadline per attempt, a response size cap, retries only where
// repeating cannot do harm, errors mapped to exit codes, and --debug logging with secrets redacted. Requests go
// over Node's http/https (node-transport.ts) unless they go through a proxy, which takes undici. Imported
// lazily: only commands that talk to a service pay for it.
import { readCapped, ResponseTooLarge, toResponse } from './answer.js';
import { DeadlineExceeded, startDeadline } from './attempt-deadline.js';
import { readCa } from './ca.js';
import { ExitCode, TridentError, usageError } from '../errors.js';
import { headerValue, networkFailure, redirectError, statusError, type AttemptFailure } from './failures.js';
import { proxiesFrom, proxyFor, type Proxies } from './proxies.js';
import { debugBody, redactHeaders, redactText, redactUrlText } from './redact.js';
import { backoffMs, failureWords, mayRetry, parseRetryAfter } from './retry.js';
import { Routes, type Route } from './routes.js';
import type { TransportResponse } from './transport.js';
import type { Answer, HttpClient, HttpClientOptions, RequestOptions } from './types.js';

export type { HeadersSeen, HttpClient, HttpClientOptions, HttpResponse, OnRateLimited, RequestOptions } from './types.js';

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

/** The client for a command: undici is loaded only when HTTPS_PROXY or HTTP_PROXY is set. */
export async function openHttpClient(options: HttpClientOptions): Promise<HttpClient> {
  if (options.dispatcher) return createHttpClient(options);
  const proxied = proxiesFrom(options.env ?? process.env) !== undefined;
  return createHttpClient({
    ...options,
    ...(proxied ? { undici: await import('./undici-transport.js') } : {}),
  });
}

/** What every attempt of a client's requests shares. */
interface Attempts {
  options: HttpClientOptions;
  timeoutMs: number;
  now: () => number;
  log: ((line: string) => void) | undefined;
  proxies: Proxies | undefined;
  routes: Routes;
}

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
  const routes = new Routes({ timeoutMs, ca, proxies, dispatcher: options.dispatcher, undici: options.undici });
  const attempts: Attempts = { options, timeoutMs, now, log, proxies, routes };

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
        const outcome = await attempt(attempts, req, url, number);
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
        const waited = options.onRetryWait?.({
          why: failureWords(failure, error.cause),
          next: number + 1,
          attempts: retries + 1,
          ms: waitMs,
        });
        try {
          await sleep(waitMs);
        } finally {
          waited?.();
        }
      }
    },
    close: () => routes.close(),
  };
}

/** One attempt of a request: the answer, or what failed and whether it may be tried again. */
async function attempt(attempts: Attempts, req: RequestOptions, url: URL, number: number): Promise<Answer | AttemptFailure> {
  const { options, timeoutMs, now, log, proxies, routes } = attempts;
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
  const { transport, watch } = routes.get(route);
  const reading = { started: false, bytes: 0, expected: undefined as string | undefined };
  const deadline = startDeadline(timeoutMs, () =>
    reading.started ? 'reading the answer' : watch.isConnected(url.origin) ? 'waiting for the answer' : 'connecting',
  );
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
      const sent = transport.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: req.method,
        headers,
        body: req.body,
        signal: deadline.signal,
        onDeadline: deadline.onExpired,
      });
      sent.catch(() => undefined);
      response = await deadline.race(sent);
    } catch (error) {
      // A request still waiting for its connection cannot be aborted in undici 7: end the connecting.
      if (cannotConnect || (error instanceof DeadlineExceeded && error.stage === 'connecting')) routes.reset(route);
      return networkFailure(error, url, req.method, { proxy, timeoutMs });
    }
    stopWatching();
    options.onHeaders?.({ status: response.statusCode, headers: response.headers, sentAt: started, receivedAt: now() });
    reading.started = true;
    reading.expected = headerValue(response.headers['content-length']);
    let body: Buffer;
    try {
      body = await deadline.race(
        readCapped(response.body, req.maxResponseBytes ?? options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES, reading),
      );
    } catch (error) {
      response.body.destroy();
      if (error instanceof ResponseTooLarge) return tooLarge(url, response.statusCode, error);
      return networkFailure(error, url, req.method, { duringBody: reading, proxy, timeoutMs });
    }
    log?.(`< ${response.statusCode} (${now() - started} ms) ${debugBody(body.toString('utf8'))}`);
    return answerOf(toResponse(response, body, number, options.serviceName), req, options.serviceName, now());
  } finally {
    stopWatching();
    deadline.clear();
  }
}

/** A whole answer: the response, unless its status makes it a failure. */
function answerOf(result: Answer, req: RequestOptions, serviceName: string, now: number): Answer | AttemptFailure {
  const status = result.status;
  if (req.accept?.includes(status)) return result;
  if (status >= 300 && status < 400) return { failure: { kind: 'fatal' }, error: redirectError(result, serviceName, req.method) };
  if (status < 400) return result;
  return {
    failure: { kind: 'status', status, retryAfter: headerValue(result.headers['retry-after']) },
    error: statusError(result, serviceName, req.method, now),
  };
}

function tooLarge(url: URL, status: number, error: ResponseTooLarge): AttemptFailure {
  return {
    failure: { kind: 'fatal' },
    error: new TridentError(ExitCode.unavailable, `the answer from ${url.host} is larger than ${error.message}; stopped reading`, {
      status,
      hint: 'check the URL; if such an answer is expected, raise the cap with TRIDENT_MAX_RESPONSE_MB',
    }),
  };
}
