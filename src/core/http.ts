// The one HTTP core (DESIGN §3): undici with keep-alive, timeouts, a response size cap, retries only
// where repeating cannot do harm, errors mapped to exit codes, and --debug logging with secrets redacted.
// Imported lazily: only commands that talk to a service pay for undici.
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import type { Dispatcher } from 'undici';
import { Agent } from './undici-lite.js';
import type { EnvHttpProxyAgent } from './undici-proxy.js';
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
  /**
   * Requests sent on one connection before the earlier answers are in (HTTP/1.1 pipelining). Only for
   * services where every request is a GET (the catalog): undici never pipelines behind a non-idempotent one,
   * but a write should not wait behind a slow read either. Such a client also keeps to one connection.
   */
  pipelining?: number;
  /** undici's proxy agent, when a proxy is set: openHttpClient() loads it. */
  proxyAgent?: typeof EnvHttpProxyAgent;
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
  json<T = unknown>(): T;
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
const DAY_MS = 24 * 60 * 60 * 1000;
const REQUEST_ID_HEADERS = ['x-request-id', 'request-id', 'x-amzn-requestid', 'cf-ray'];
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);
const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

class ResponseTooLarge extends Error {}

// undici parses HTTP with llhttp compiled to WebAssembly. V8 re-compiles it with its optimizing tier on
// background threads, and the process waits for them at exit: about 70 ms on every short command. The
// baseline compiler alone is fast enough for parsing answers. Set before the first request compiles it.
setFlagsFromString('--liftoff-only');

/** The client for a command: undici's proxy support is loaded only when HTTPS_PROXY or HTTP_PROXY is set. */
export async function openHttpClient(options: HttpClientOptions): Promise<HttpClient> {
  const proxied = !options.dispatcher && proxiesFrom(options.env ?? process.env) !== undefined;
  return createHttpClient(proxied ? { ...options, proxyAgent: (await import('./undici-proxy.js')).EnvHttpProxyAgent } : options);
}

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const retries = options.retries ?? 3;
  const proxies = options.dispatcher ? undefined : proxiesFrom(options.env ?? process.env);
  const proxyFor = (url: URL): ProxyInUse | undefined => {
    // As undici's EnvHttpProxyAgent: https goes through HTTPS_PROXY, else HTTP_PROXY.
    const [value, variable] = url.protocol === 'https:' && proxies?.httpsProxy ? [proxies.httpsProxy, 'HTTPS_PROXY'] : [proxies?.httpProxy, 'HTTP_PROXY'];
    return value && URL.canParse(value) ? { url: new URL(value), variable } : undefined;
  };
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
  const dispatcher = options.dispatcher ?? makeDispatcher(timeoutMs, options.caFile, proxies, options.pipelining, options.proxyAgent);
  const log = options.debug;

  async function attempt(req: RequestOptions, url: URL, number: number): Promise<Answer | { failure: Failure; error: TridentError }> {
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
      return networkFailure(error, url, req.method, false, proxyFor(url));
    }
    let body: Buffer;
    try {
      body = await readCapped(response.body, req.maxResponseBytes ?? options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES);
    } catch (error) {
      if (error instanceof ResponseTooLarge) {
        return {
          failure: { kind: 'fatal' },
          error: new TridentError(ExitCode.unavailable, `the answer from ${url.host} is larger than ${error.message}; stopped reading`, {
            status: response.statusCode,
            hint: 'check the URL; if such an answer is expected, raise the cap with TRIDENT_MAX_RESPONSE_MB',
          }),
        };
      }
      return networkFailure(error, url, req.method, true, proxyFor(url));
    }
    const text = body.toString('utf8');
    log?.(`< ${response.statusCode} (${now() - started} ms) ${redactText(text.length > 4000 ? `${text.slice(0, 4000)}…` : text)}`);
    const result = toResponse(response, body, number, options.serviceName);
    if (response.statusCode < 400 || req.accept?.includes(response.statusCode)) return result;
    const retryAfter = headerValue(response.headers['retry-after']);
    return { failure: { kind: 'status', status: response.statusCode, retryAfter }, error: statusError(result, options.serviceName, retryAfter, now()) };
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
        if (failure.kind === 'status' && failure.status === 429) rateLimited = true;
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

type Proxies = { httpProxy?: string; httpsProxy?: string; noProxy?: string };

function proxiesFrom(env: NodeJS.ProcessEnv): Proxies | undefined {
  const httpsProxy = env.HTTPS_PROXY ?? env.https_proxy;
  const httpProxy = env.HTTP_PROXY ?? env.http_proxy;
  return httpsProxy || httpProxy ? { httpProxy, httpsProxy, noProxy: env.NO_PROXY ?? env.no_proxy } : undefined;
}

function makeDispatcher(
  timeoutMs: number,
  caFile: string | undefined,
  proxies: Proxies | undefined,
  pipelining?: number,
  ProxyAgent?: typeof EnvHttpProxyAgent,
): Dispatcher {
  let ca: string[] | undefined;
  if (caFile) {
    let pem: string;
    try {
      pem = readFileSync(caFile, 'utf8');
    } catch (error) {
      throw usageError(`cannot read CA file ${caFile}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    if (!isCertificatePem(pem)) {
      throw usageError(`CA file ${caFile} holds no PEM certificate`, 'pass the CA certificate (-----BEGIN CERTIFICATE-----) with --ca-file, TRIDENT_CA_FILE or caFile');
    }
    // node:tls is loaded here, not at start-up: a plain-HTTP command never needs it (~7 ms).
    ca = [...process.getBuiltinModule('node:tls').rootCertificates, pem];
  }
  const settings = {
    keepAliveTimeout: 10_000,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connect: { timeout: timeoutMs, ...(ca ? { ca } : {}) },
    ...(pipelining && pipelining > 1 ? { pipelining, connections: 1 } : {}),
  };
  if (!proxies) return new Agent(settings);
  if (!ProxyAgent) throw new Error('a proxy is set: open the HTTP client with openHttpClient()');
  // Through a proxy, undici takes TLS options for the service (inside the tunnel) and for an https:// proxy
  // apart from `connect`: the extra CA goes to both.
  return new ProxyAgent({ ...settings, ...proxies, requestTls: settings.connect, proxyTls: settings.connect });
}

function isCertificatePem(pem: string): boolean {
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) return false;
  try {
    new X509Certificate(pem);
    return true;
  } catch {
    return false;
  }
}

/** 16777216 → "16 MiB"; 1000 → "1000 bytes". */
function byteSize(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

async function readCapped(body: Dispatcher.ResponseData['body'], max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > max) {
      body.destroy();
      throw new ResponseTooLarge(byteSize(max));
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function toResponse(response: Dispatcher.ResponseData, body: Buffer, attempts: number, serviceName: string): Answer {
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
        throw new TridentError(ExitCode.unavailable, `${serviceName} answered ${response.statusCode} with a body that is not valid JSON`, {
          status: response.statusCode,
          requestId,
          hint: 'the answer may have been cut off; try again, with --debug to see it',
        });
      }
    },
  };
}

function statusError(response: Answer, serviceName: string, retryAfter: string | undefined, now: number): TridentError {
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
    hint =
      wait === undefined
        ? 'rate limited: wait a little and try again'
        : wait > DAY_MS
          ? 'rate limited: the service asks for a wait of more than a day'
          : `rate limited: try again in ${Math.ceil(wait / 1000)} s`;
  } else if (exitCode === ExitCode.unavailable) {
    hint = 'the service failed; try again later';
  } else if (response.status === 404) {
    hint = 'check the id, and that the URL points at the right service';
  }
  return new TridentError(exitCode, `${serviceName} answered ${response.status}: ${what}`, {
    status: response.status,
    code,
    requestId: response.requestId,
    hint: response.requestId ? `${hint ? `${hint}; ` : ''}request id ${response.requestId}` : hint,
  });
}

interface ProxyInUse {
  url: URL;
  /** HTTPS_PROXY or HTTP_PROXY, for messages. */
  variable: string;
}

const portOf = (url: URL) => url.port || (url.protocol === 'https:' ? '443' : '80');

/**
 * A connection the proxy could not make is not the service's fault: name the proxy. Told apart by the
 * address the socket tried (the proxy's port or host name, not the service's); with NO_PROXY or equal
 * ports it stays the service.
 */
function failedAtProxy(err: NodeJS.ErrnoException & { port?: number; hostname?: string }, url: URL, proxy: ProxyInUse | undefined): boolean {
  if (!proxy) return false;
  const port = err.port !== undefined ? String(err.port) : undefined;
  if (port !== undefined) return port === portOf(proxy.url) && port !== portOf(url);
  return err.hostname !== undefined && err.hostname === proxy.url.hostname && err.hostname !== url.hostname;
}

function networkFailure(error: unknown, url: URL, method: Method, duringBody = false, proxy?: ProxyInUse): { failure: Failure; error: TridentError } {
  const err = error as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  const code = err.code ?? err.cause?.code ?? '';
  const failing = (err.cause ?? err) as NodeJS.ErrnoException & { port?: number; hostname?: string };
  if ((code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') && failedAtProxy(failing, url, proxy)) {
    return {
      failure: { kind: 'not-sent' },
      error: new TridentError(ExitCode.unavailable, `cannot reach the proxy ${proxy!.url.host} (${proxy!.variable}): ${code === 'ECONNREFUSED' ? 'connection refused' : 'unknown host'}`, {
        hint: `check ${proxy!.variable}, or list ${url.hostname} in NO_PROXY to go direct`,
        code,
        cause: error,
      }),
    };
  }
  if (code === 'UND_ERR_INVALID_ARG') {
    // undici refused to build the request (a header value with a control character, say): nothing left here.
    return {
      failure: { kind: 'fatal' },
      error: new TridentError(ExitCode.usage, `cannot send a request to ${url.host}: ${err.message}`, {
        hint: 'a value that goes into the request (a token, a key id) holds characters a request cannot carry',
        code,
      }),
    };
  }
  // A certificate is checked in the TLS handshake, before a byte of the request is sent.
  const tls = /CERT|SSL|TLS|SELF_SIGNED|ALTNAME/i.test(code) || /certificate/i.test(`${err.message} ${err.cause?.message ?? ''}`);
  const notSent = !duringBody && (NOT_SENT_CODES.has(code) || tls);
  let message: string;
  let hint: string | undefined;
  if (TIMEOUT_CODES.has(code)) {
    message = `no answer from ${url.host} in time (${code === 'UND_ERR_CONNECT_TIMEOUT' ? 'connecting' : duringBody ? 'reading the answer' : 'waiting for the answer'})`;
    hint = 'raise --timeout, or check that the service is up';
  } else if (code === 'ECONNREFUSED') {
    message = `cannot connect to ${url.host}: connection refused`;
    hint = 'check the URL and that the service is running';
  } else if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    message = `cannot resolve ${url.hostname}`;
    hint = 'check the URL';
  } else if (tls) {
    // OpenSSL's own text ("80AC…:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:…\n"): its reason.
    const raw = (err.cause?.message ?? err.message).trim();
    const reason = /SSL routines:[^:]*:([^:]+)/.exec(raw)?.[1] ?? raw;
    message = `TLS error talking to ${url.host}: ${reason}`;
    hint = /ALTNAME/i.test(code)
      ? `the certificate is not valid for the name ${url.hostname}: check the host in the URL`
      : /wrong version number|packet length too long|unknown protocol/i.test(reason)
        ? `${url.host} does not answer with TLS: check that this port serves https`
        : 'if the service uses a private CA, pass it with --ca-file';
  } else {
    message = `connection to ${url.host} failed${duringBody ? ' while reading the answer' : ''}: ${err.cause?.message ?? err.message}`;
    hint = 'check that the service is up, then try again';
  }
  if (!notSent && method === 'POST') {
    message = `${message}; the request was sent, so its outcome is unknown`;
    hint = `check whether it took effect before running the command again${TIMEOUT_CODES.has(code) ? '; a longer --timeout may help' : ''}`;
  }
  return {
    failure: tls ? { kind: 'fatal' } : notSent ? { kind: 'not-sent' } : { kind: 'unknown' },
    error: new TridentError(ExitCode.unavailable, message, { hint, code: notSent ? code : 'UNKNOWN_OUTCOME', cause: error }),
  };
}
