// What a failed attempt means: an error kind with its exit code, a one-line message that names what failed (the
// service, the proxy, the stage a deadline ran out in), what to do next, and for the retry rules whether the
// request can have reached the service. A write that may have acted and whose outcome is not known carries the
// code UNKNOWN_OUTCOME: it is never repeated and never "try again later".
import { DeadlineExceeded } from './attempt-deadline.js';
import { ExitCode, TridentError, UNKNOWN_OUTCOME, exitCodeForStatus } from '../errors.js';
import { parseJson } from '../json/parse.js';
import { oneLine } from '../term/printable.js';
import { failedAtProxy, proxyRefusal, proxyStalled, type ProxyInUse } from './proxies.js';
import { redactUrlText } from './redact.js';
import { mayAct, parseRetryAfter, type Failure, type Method } from './retry.js';
import { serviceMessage } from './service-message.js';

export type AttemptFailure = { failure: Failure; error: TridentError };

/** What the failing answer was: status, headers, body. */
export interface FailedAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  requestId?: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);
const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'TRIDENT_DEADLINE']);
const SENT_BUT_UNKNOWN = '; the request was sent, so its outcome is unknown';
const CHECK_FIRST = 'check whether it took effect before running the command again';

/** undici's and Node's words (messages, codes) for answers that break HTTP in ways llhttp lets through. */
const BROKEN_HTTP: Record<string, string> = {
  UND_ERR_HEADERS_OVERFLOW: 'headers larger than 16 KiB',
  HPE_HEADER_OVERFLOW: 'headers larger than 16 KiB',
  'bad upgrade': 'a 101 Switching Protocols nobody asked for',
  'bad response': 'an informational (1xx) answer and then nothing',
};

export const headerValue = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/** An error status. A 5xx to a POST (or another write) may come after the service acted (a gateway timing out): outcome unknown. */
export function statusError(answer: FailedAnswer, serviceName: string, method: Method, now: number): TridentError {
  const parsed = parseJson(answer.body.toString('utf8'));
  const { message, code } = serviceMessage(parsed.ok ? parsed.value : undefined);
  const what =
    message ??
    (parsed.ok || answer.body.length === 0
      ? 'no message'
      : parsed.problem === 'too-deep'
        ? 'an answer nested too deeply'
        : 'an answer that is not JSON');
  const exitCode = exitCodeForStatus(answer.status);
  const unknown = mayAct(method) && answer.status >= 500;
  let hint: string | undefined;
  if (answer.status === 429) {
    const wait = parseRetryAfter(headerValue(answer.headers['retry-after']), now);
    hint =
      wait === undefined
        ? 'rate limited: wait a little and try again'
        : wait > DAY_MS
          ? 'rate limited: the service asks for a wait of more than a day'
          : `rate limited: try again in ${Math.ceil(wait / 1000)} s`;
  } else if (unknown) {
    hint = CHECK_FIRST;
  } else if (exitCode === ExitCode.unavailable) {
    hint = 'the service failed; try again later';
  } else if (answer.status === 404) {
    hint = 'check the id, and that the URL points at the right service';
  }
  return new TridentError(exitCode, `${serviceName} answered ${answer.status}: ${what}${unknown ? SENT_BUT_UNKNOWN : ''}`, {
    status: answer.status,
    code: unknown ? UNKNOWN_OUTCOME : code,
    requestId: answer.requestId,
    hint: answer.requestId ? `${hint ? `${hint}; ` : ''}request id ${answer.requestId}` : hint,
  });
}

/**
 * A 3xx is never a success and never followed (a gateway sending a browser to its login page, a host that
 * moved). Only a 303 says the service acted on a POST (or another write) first.
 */
export function redirectError(answer: FailedAnswer, serviceName: string, method: Method): TridentError {
  const location = headerValue(answer.headers.location);
  const where = location ? `a redirect to ${oneLine(redactUrlText(location), 300)}` : 'a redirect without a Location';
  const acted = mayAct(method) && answer.status === 303;
  return new TridentError(
    ExitCode.unavailable,
    `${serviceName} answered ${answer.status} (${where}), which trident does not follow${acted ? SENT_BUT_UNKNOWN : ''}`,
    {
      status: answer.status,
      code: acted ? UNKNOWN_OUTCOME : 'REDIRECT',
      requestId: answer.requestId,
      hint: acted ? CHECK_FIRST : 'check the URL: the service may have moved, or a gateway in front of it wants a browser login',
    },
  );
}

export interface NetworkContext {
  /** Set when the headers had come: how much of the body did. */
  duringBody?: { bytes: number; expected?: string };
  proxy?: ProxyInUse;
  timeoutMs: number;
}

export function networkFailure(error: unknown, url: URL, method: Method, context: NetworkContext): AttemptFailure {
  const { duringBody, proxy } = context;
  const err = error as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  const code = err.code ?? err.cause?.code ?? '';
  const failing = (err.cause ?? err) as NodeJS.ErrnoException & { port?: number; hostname?: string };
  if ((code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') && failedAtProxy(failing, url, proxy)) {
    return {
      failure: { kind: 'not-sent' },
      error: new TridentError(
        ExitCode.unavailable,
        `cannot reach the proxy ${proxy!.url.host} (${proxy!.variable}): ${code === 'ECONNREFUSED' ? 'connection refused' : 'unknown host'}`,
        {
          hint: `check ${proxy!.variable}, or list ${url.hostname} in NO_PROXY to go direct`,
          code,
          cause: error,
        },
      ),
    };
  }
  if (error instanceof DeadlineExceeded && error.stage === 'connecting' && proxy) {
    return { failure: { kind: 'not-sent' }, error: proxyStalled(url, proxy, context.timeoutMs) };
  }
  const refusal = !duringBody ? proxyRefusal(err, url, proxy) : undefined;
  if (refusal) return { failure: refusal.exitCode === ExitCode.auth ? { kind: 'fatal' } : { kind: 'not-sent' }, error: refusal };
  if (
    code === 'UND_ERR_INVALID_ARG' ||
    code === 'ERR_INVALID_CHAR' ||
    code === 'ERR_INVALID_HTTP_TOKEN' ||
    code === 'ERR_UNESCAPED_CHARACTERS'
  ) {
    // undici or Node refused to build the request (a header value with a control character, say): nothing left here.
    return {
      failure: { kind: 'fatal' },
      error: new TridentError(ExitCode.usage, `cannot send a request to ${url.host}: ${err.message}`, {
        hint: 'a value that goes into the request (a token, a key id) holds characters a request cannot carry',
        code,
      }),
    };
  }
  // A certificate is checked in the TLS handshake, before a byte of the request is sent.
  const tls =
    /CERT|SSL|TLS|SELF_SIGNED|ALTNAME|EPROTO/i.test(code) || /certificate|SSL routines/i.test(`${err.message} ${err.cause?.message ?? ''}`);
  const stalledConnecting = error instanceof DeadlineExceeded && error.stage === 'connecting';
  const notSent = !duringBody && (NOT_SENT_CODES.has(code) || tls || stalledConnecting);
  let message: string;
  let hint: string | undefined;
  if (TIMEOUT_CODES.has(code)) {
    message = `no answer from ${url.host} in time (${timeoutStage(error, code, context)})`;
    hint = 'raise --timeout, or check that the service is up';
  } else if (code === 'ECONNREFUSED') {
    message = `cannot connect to ${url.host}: connection refused`;
    hint = 'check the URL and that the service is running';
  } else if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    message = `cannot resolve ${url.hostname}`;
    hint = 'check the URL';
  } else if (
    /does not match the HTTP\/1\.1 protocol/.test(`${err.message} ${err.cause?.message ?? ''}`) ||
    code.startsWith('HPE_') ||
    (BROKEN_HTTP[code] ?? BROKEN_HTTP[err.message]) !== undefined
  ) {
    // undici: "Response does not match the HTTP/1.1 protocol (<llhttp's reason>)"; Node: a `reason` of its own.
    const reason =
      BROKEN_HTTP[code] ??
      BROKEN_HTTP[err.message] ??
      (err as { reason?: string }).reason ??
      /\(([^)]+)\)\s*$/.exec(err.cause?.message ?? err.message)?.[1] ??
      err.message;
    message = `${url.host} did not answer with valid HTTP${duringBody ? ' while sending the answer' : ''}: ${reason}`;
    hint = 'check that the URL points at the service (the right port, http or https); a broken gateway does this too';
  } else if (tls) {
    // OpenSSL's own text ("80AC…:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:…\n"): its reason.
    // Node 24 adds advice about its own --use-system-ca flag, which trident's users cannot pass: the hint says what they can.
    const raw = (err.cause?.message ?? err.message).replace(/; if the root CA is installed locally, .*$/s, '').trim();
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
  if (!notSent && mayAct(method)) {
    message = `${message}${SENT_BUT_UNKNOWN}`;
    hint = `${CHECK_FIRST}${TIMEOUT_CODES.has(code) ? '; a longer --timeout may help' : ''}`;
  }
  return {
    failure: tls ? { kind: 'fatal' } : notSent ? { kind: 'not-sent' } : { kind: 'unknown' },
    error: new TridentError(ExitCode.unavailable, message, { hint, code: notSent ? code : UNKNOWN_OUTCOME, cause: error }),
  };
}

function timeoutStage(error: unknown, code: string, context: NetworkContext): string {
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return 'connecting';
  const body = context.duringBody;
  if (body) {
    const of = body.expected !== undefined ? ` of ${body.expected}` : '';
    return `reading the answer: ${body.bytes}${of} bytes in ${context.timeoutMs / 1000} s`;
  }
  return error instanceof DeadlineExceeded ? error.stage : 'waiting for the answer';
}
