// `trident api <keys|time|catalog> <path>`, as `gh api`: one raw request with the service's own authentication.
// Prints the answer's body (pretty JSON on a terminal, as it came otherwise); the exit code follows the status
// as for any command. A 4xx answer's body is printed too; 429 and 5xx go through the retries of the HTTP core
// and end as any command's failure; a 3xx is exit 8 naming where it points.
import { Argument, type Command } from 'commander';
import { examples, type Binder } from '../command.js';
import type { Context } from '../context.js';
import { ExitCode, TridentError, exitCodeForStatus, usageError } from '../core/errors.js';
import { unusableAnswer } from '../core/http/answer-json.js';
import type { HttpResponse } from '../core/http/client.js';
import { serviceMessage } from '../core/http/service-message.js';
import { joinUrl } from '../core/http/url.js';
import { jsonText } from '../core/json/big-integers.js';
import { parseJson } from '../core/json/parse.js';
import { escapeControls, escapeJsonControls } from '../core/term/printable.js';
import { readBody } from './input.js';
import { buildRequest, METHODS } from './request.js';
import { SERVICES, openService, type ApiService, type ServiceEndpoint } from './services.js';

export interface ApiOptions {
  method?: string;
  field?: string[];
  input?: string;
}

/** 4xx answers other than 429 come back to be printed; 429 and 5xx are retried (GET) and thrown by the core. */
const PRINTED_ERRORS = Array.from({ length: 100 }, (_, i) => 400 + i).filter((status) => status !== 429);

export async function run(ctx: Context, opts: ApiOptions, service: string, path: string): Promise<number> {
  refuseOtherFormats(ctx);
  const input = opts.input === undefined ? undefined : await readBody(ctx, opts.input);
  const request = buildRequest(path, { method: opts.method, fields: opts.field ?? [], input }, bodyKindOf(service as ApiService));
  const endpoint = await openService(ctx, service as ApiService);
  const url = joinUrl(endpoint.baseUrl, request.path);
  url.search = request.query.toString();
  const response = await endpoint.http.request({
    method: request.method,
    url,
    headers: () => ({ ...endpoint.auth(request.method, url), ...(request.contentType ? { 'content-type': request.contentType } : {}) }),
    body: request.body,
    accept: PRINTED_ERRORS,
  });
  if (response.status >= 300 && response.status < 400) throw redirected(endpoint, response);
  const text = response.text();
  // Integers beyond 2^53 (the time tracker's ids) printed with every digit, as the service sent them.
  const parsed = parseJson(text, { bigIntegers: true });
  // Not JSON is printed as it came; JSON nested too deeply is refused even then, as every command refuses it.
  if (!parsed.ok && parsed.problem === 'too-deep') throw unusableAnswer(endpoint.name, parsed.problem, response);
  const value = parsed.ok ? parsed.value : undefined;
  await printBody(ctx, text, value);
  if (response.status < 400) return ExitCode.ok;
  const { message } = serviceMessage(value);
  throw new TridentError(
    exitCodeForStatus(response.status),
    `${endpoint.name} answered ${response.status}${message ? `: ${message}` : ''}`,
    {
      status: response.status,
      requestId: response.requestId,
    },
  );
}

function bodyKindOf(service: ApiService) {
  return service === 'time' ? 'form' : 'json';
}

/**
 * The answer's body (`value`: as JSON, undefined when it is not JSON): as it came to a pipe or a file; on a
 * terminal pretty JSON, or the text, with control, bidi and zero-width characters escaped (they would drive
 * the terminal or show one text as another).
 */
async function printBody(ctx: Context, text: string, value: unknown): Promise<void> {
  if (ctx.output.jsonFilter) {
    if (value === undefined)
      throw new TridentError(ExitCode.usage, '--jq needs a JSON answer, and this one is not JSON', {
        hint: 'leave out --jq to see the answer as it came',
      });
    return ctx.output.jsonFilter(value, (chunk) => ctx.output.write(chunk));
  }
  if (text === '') return;
  // As it came, and ending its line, so that the next prompt or `read` starts on a line of its own.
  if (!ctx.io.stdout.isTTY) return ctx.output.write(text.endsWith('\n') ? text : `${text}\n`);
  await ctx.output.write(
    value !== undefined
      ? escapeJsonControls(`${jsonText(value, 2)}\n`)
      : `${escapeControls(text, { keepNewlines: true })}${text.endsWith('\n') ? '' : '\n'}`,
  );
}

/** The answer is printed as the service sent it: a table, csv or ndjson asked for with -o or TRIDENT_OUTPUT cannot be. */
function refuseOtherFormats(ctx: Context): void {
  const output = ctx.settings.resolve('output');
  if ((output.source === 'flag' || output.source === 'env') && output.value !== 'json') {
    throw usageError(
      `api prints the service's answer as it came: ${output.source === 'flag' ? `-o ${output.value}` : `TRIDENT_OUTPUT=${output.value}`} does not apply`,
      'leave out -o (or use -o json), and pick fields with --jq',
    );
  }
}

function redirected(endpoint: ServiceEndpoint, response: HttpResponse): TridentError {
  const location = response.headers.location;
  return new TridentError(
    ExitCode.unavailable,
    `${endpoint.name} answered ${response.status}${location ? ` pointing to ${String(location)}` : ' without a Location'}; redirects are not followed`,
    {
      status: response.status,
      hint: 'check the path and the service URL',
    },
  );
}

export function register(command: Command, bind: Binder): void {
  command
    .description(
      'Send one raw request to a service with its own authentication: keys signed with the key in use, time with the token and the stable User-Agent, the catalog with none. <path> is below the service\'s base URL and may carry a query. -f key=value builds a JSON body for keys ("key[]=value" makes a list) and a form body for time; with GET they go into the query. POST is never retried.',
    )
    .addArgument(new Argument('<service>', 'the service').choices([...SERVICES]))
    .argument(
      '<path>',
      'the path below the base URL, starting with "/", e.g. /api_keys; "." and ".." segments, "\\", %2f and %5c are refused',
    )
    .option('-X, --method <method>', `${METHODS.join(', ')} (default GET, or POST with -f or --input)`)
    .option(
      '-f, --field <key=value>',
      'a field of the body (or of the query with GET); repeatable',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option('--input <file>', 'the body as it is, from a file or - for stdin')
    .action(bind(run));
  examples(command, [
    'trident api keys /api_keys',
    'trident api keys /api_keys --jq \'.api_keys[] | select(.name == "ci") | .api_key\'',
    'trident api keys /api_keys/KEY_ID -X DELETE',
    "trident api time /projects --jq '.data | length'",
    "trident api time /projects -f 'name=New project'",
    "trident api catalog '/products?limit=2' --jq '.items[].title'",
  ]);
}
