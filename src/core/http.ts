// The one HTTP core (DESIGN §3): undici with keep-alive, timeouts, a response size cap, retries only
// where repeating cannot do harm, errors mapped to exit codes, and --debug logging with secrets redacted.
// Imported lazily: only commands that talk to a service pay for undici.
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { setFlagsFromString } from 'node:v8';
import type { Dispatcher } from 'undici';
import { Agent, EnvHttpProxyAgent } from './undici-lite.js';
import { ExitCode, TridentError, exitCodeForStatus, usageError } from './errors.js';
import { redactHeaders, redactText } from './redact.js';
import { backoffMs, mayRetry, parseRetryAfter, type Failure, type Method } from './retry.js';
import { serviceMessage } from './service-message.js';

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
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** How many attempts it took (1 = no retry). */
  attempts: number;
  requestId?: string;
  text(): string;
  json<T = unknown>(): T;
}

export interface HttpClient {
  request(options: RequestOptions): Promise<HttpResponse>;
  close(): Promise<void>;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;
const REQUEST_ID_HEADERS = ['x-request-id', 'request-id', 'x-amzn-requestid', 'cf-ray'];
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);
const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

class ResponseTooLarge extends Error {}

// undici parses HTTP with llhttp compiled to WebAssembly. V8 re-compiles it with its optimizing tier on
// background threads, and the process waits for them at exit: about 70 ms on every short command. The
// baseline compiler alone is fast enough for parsing answers. Set before the first request compiles it.
setFlagsFromString('--liftoff-only');

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const retries = options.retries ?? 3;
  const env = options.env ?? process.env;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
  const dispatcher = options.dispatcher ?? makeDispatcher(timeoutMs, options.caFile, env);
  const log = options.debug;

  async function attempt(req: RequestOptions, url: URL, number: number): Promise<HttpResponse | { failure: Failure; error: TridentError }> {
    const headers: Record<string, string> = {
      'user-agent': options.userAgent ?? 'trident-cli',
      accept: 'application/json',
      ...(typeof req.headers === 'function' ? req.headers() : req.headers),
    };
    const started = now();
    log?.(`> ${req.method} ${url.href}${number > 1 ? ` (attempt ${number})` : ''}`);
    log?.(`> headers ${JSON.stringify(redactHeaders(headers))}`);
    if (req.body !== undefined) log?.(`> body ${redactText(req.body)}`);
    let response: Dispatcher.ResponseData;
    try {
      response = await dispatcher.request({ origin: url.origin, path: `${url.pathname}${url.search}`, method: req.method, headers, body: req.body });
    } catch (error) {
      return networkFailure(error, url, req.method);
    }
    let body: Buffer;
    try {
      body = await readCapped(response.body, req.maxResponseBytes ?? options.maxResponseBytes ?? DEFAULT_MAX_BYTES);
    } catch (error) {
      if (error instanceof ResponseTooLarge) {
        return {
          failure: { kind: 'fatal' },
          error: new TridentError(ExitCode.unavailable, `the answer from ${url.host} is larger than ${error.message} bytes; stopped reading`),
        };
      }
      return networkFailure(error, url, req.method, true);
    }
    const text = body.toString('utf8');
    log?.(`< ${response.statusCode} (${now() - started} ms) ${redactText(text.length > 4000 ? `${text.slice(0, 4000)}…` : text)}`);
    const result = toResponse(response, body, number);
    if (response.statusCode < 400 || req.accept?.includes(response.statusCode)) return result;
    const retryAfter = headerValue(response.headers['retry-after']);
    return { failure: { kind: 'status', status: response.statusCode, retryAfter }, error: statusError(result, options.serviceName, retryAfter, now()) };
  }

  return {
    async request(req) {
      const url = typeof req.url === 'string' ? new URL(req.url) : req.url;
      for (let number = 1; ; number += 1) {
        const outcome = await attempt(req, url, number);
        if (!('failure' in outcome)) return outcome;
        const { failure, error } = outcome;
        if (number > retries || !mayRetry(req.method, failure, req.deleteIsRetrySafe)) throw error;
        let waitMs = backoffMs(number - 1, random);
        if (failure.kind === 'status') {
          const fromHeader = parseRetryAfter(failure.retryAfter, now());
          if (fromHeader !== undefined) {
            if (fromHeader > maxRetryAfterMs) throw error;
            waitMs = fromHeader;
          }
        }
        log?.(`retrying in ${waitMs} ms (${error.message})`);
        await sleep(waitMs);
      }
    },
    close: () => (options.dispatcher ? Promise.resolve() : dispatcher.close()),
  };
}

function makeDispatcher(timeoutMs: number, caFile: string | undefined, env: NodeJS.ProcessEnv): Dispatcher {
  let ca: string[] | undefined;
  if (caFile) {
    try {
      ca = [...rootCertificates, readFileSync(caFile, 'utf8')];
    } catch (error) {
      throw usageError(`cannot read CA file ${caFile}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  }
  const settings = {
    keepAliveTimeout: 10_000,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connect: { timeout: timeoutMs, ...(ca ? { ca } : {}) },
  };
  const httpsProxy = env.HTTPS_PROXY ?? env.https_proxy;
  const httpProxy = env.HTTP_PROXY ?? env.http_proxy;
  if (httpsProxy || httpProxy) {
    return new EnvHttpProxyAgent({ ...settings, httpProxy, httpsProxy, noProxy: env.NO_PROXY ?? env.no_proxy });
  }
  return new Agent(settings);
}

async function readCapped(body: Dispatcher.ResponseData['body'], max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > max) {
      body.destroy();
      throw new ResponseTooLarge(String(max));
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function toResponse(response: Dispatcher.ResponseData, body: Buffer, attempts: number): HttpResponse {
  const headers = response.headers as Record<string, string | string[] | undefined>;
  const requestId = REQUEST_ID_HEADERS.map((name) => headerValue(headers[name])).find(Boolean);
  return {
    status: response.statusCode,
    headers,
    body,
    attempts,
    requestId,
    text: () => body.toString('utf8'),
    json<T>() {
      try {
        return JSON.parse(body.toString('utf8')) as T;
      } catch {
        throw new TridentError(ExitCode.unavailable, `the service answered ${response.statusCode} with a body that is not valid JSON`, {
          status: response.statusCode,
          requestId,
          hint: 'the answer may have been cut off; try again, with --debug to see it',
        });
      }
    },
  };
}

function statusError(response: HttpResponse, serviceName: string, retryAfter: string | undefined, now: number): TridentError {
  let parsed: unknown;
  try {
    parsed = JSON.parse(response.text());
  } catch {
    parsed = undefined;
  }
  const { message, code } = serviceMessage(parsed);
  const what = message ?? (parsed === undefined && response.body.length > 0 ? 'an answer that is not JSON' : 'no message');
  const exitCode = exitCodeForStatus(response.status);
  let hint: string | undefined;
  if (response.status === 429) {
    const wait = parseRetryAfter(retryAfter, now);
    hint = wait !== undefined ? `rate limited: try again in ${Math.ceil(wait / 1000)} s` : 'rate limited: wait a little and try again';
  } else if (exitCode === ExitCode.unavailable) {
    hint = 'the service failed; try again later';
  }
  return new TridentError(exitCode, `${serviceName} answered ${response.status}: ${what}`, {
    status: response.status,
    code,
    requestId: response.requestId,
    hint: response.requestId ? `${hint ? `${hint}; ` : ''}request id ${response.requestId}` : hint,
  });
}

function networkFailure(error: unknown, url: URL, method: Method, duringBody = false): { failure: Failure; error: TridentError } {
  const err = error as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  const code = err.code ?? err.cause?.code ?? '';
  const notSent = !duringBody && NOT_SENT_CODES.has(code);
  let message: string;
  let hint: string | undefined;
  let fatal = false;
  if (TIMEOUT_CODES.has(code)) {
    message = `no answer from ${url.host} in time (${code === 'UND_ERR_CONNECT_TIMEOUT' ? 'connecting' : duringBody ? 'reading the answer' : 'waiting for the answer'})`;
    hint = 'raise --timeout, or check that the service is up';
  } else if (code === 'ECONNREFUSED') {
    message = `cannot connect to ${url.host}: connection refused`;
    hint = 'check the URL and that the service is running';
  } else if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    message = `cannot resolve ${url.hostname}`;
    hint = 'check the URL';
  } else if (/CERT|SSL|TLS|SELF_SIGNED|ALTNAME/i.test(code) || /certificate/i.test(err.message)) {
    message = `TLS error talking to ${url.host}: ${err.cause?.message ?? err.message}`;
    hint = 'if the service uses a private CA, pass it with --ca-file';
    fatal = true;
  } else {
    message = `connection to ${url.host} failed${duringBody ? ' while reading the answer' : ''}: ${err.cause?.message ?? err.message}`;
  }
  if (!notSent && method === 'POST') {
    message = `${message}; the request was sent, so its outcome is unknown`;
  }
  return {
    failure: fatal ? { kind: 'fatal' } : notSent ? { kind: 'not-sent' } : { kind: 'unknown' },
    error: new TridentError(ExitCode.unavailable, message, { hint, code: notSent ? code : 'UNKNOWN_OUTCOME', cause: error }),
  };
}
