// `trident api <keys|time|catalog> <path>`, as `gh api`: one raw request with the service's own authentication.
// Prints the answer's body (pretty JSON on a terminal, as it came otherwise); the exit code follows the status
// as for any command. A 4xx answer's body is printed too; 429 and 5xx go through the retries of the HTTP core
// and end as any command's failure; a 3xx is exit 8 naming where it points. Any method is sent as it is given:
// what the service does not accept, it answers (405, 404), and that answer is printed and exits by its status.
import { Argument } from '@commander-js/extra-typings';
import { defineCommand, type GroupCommand, type OptionsOf } from '../command.js';
import type { Context } from '../context.js';
import { ExitCode, usageError } from '../core/errors.js';
import { joinUrl } from '../core/http/url.js';
import { readFields } from './fields.js';
import { parseHeaders } from './headers.js';
import { readBody } from './input.js';
import { PAGED_PATHS, pageStart, printPages } from './paginate.js';
import { printAnswer, readAnswer, refusal } from './print.js';
import { buildRequest, type RawRequest } from './request.js';
import { SERVICES, openService, type ApiService, type ServiceEndpoint } from './services.js';

/** 4xx answers other than 429 come back to be printed; 429 and 5xx are retried (GET) and thrown by the core. */
const PRINTED_ERRORS = Array.from({ length: 100 }, (_, i) => 400 + i).filter((status) => status !== 429);

const define = (group: GroupCommand) => {
  const collect = (value: string, previous: string[] = []) => [...previous, value];
  return group
    .description(
      "Send one raw request to a service with its own authentication, as gh api: keys signed with the key in use, time with the token and the stable User-Agent, the catalog with none. <path> is below the service's base URL and may carry a query. Fields build a JSON body for keys and a form body for time; with GET they go into the query. Only a request that reads is sent again after a failure; POST, PUT and PATCH never after the service may have acted.",
    )
    .addArgument(new Argument('<service>', 'the service').choices([...SERVICES]))
    .argument(
      '<path>',
      'the path below the base URL, starting with "/", e.g. /api_keys; "." and ".." segments, "\\", %2f and %5c are refused',
    )
    .option('-X, --method <method>', 'any method: GET, POST, PUT, PATCH, DELETE... (default GET, or POST with fields or --input)')
    .option(
      '-f, --raw-field <key=value>',
      'a string field of the body (or of the query with GET); "key[]=value" makes a list; repeatable',
      collect,
    )
    .option(
      '-F, --field <key=value>',
      "a typed field: true, false, null and whole numbers as JSON's, @file the file's text (@- stdin), else a string; repeatable",
      collect,
    )
    .option(
      '-H, --header <name:value>',
      'a request header, e.g. "Accept: text/plain"; the authentication and User-Agent cannot be set; repeatable',
      collect,
    )
    .option('-i, --include', "print the status line and the answer's headers before the body")
    .option(
      '--paginate',
      `follow every page of a catalog list (${PAGED_PATHS.join(', ')}), printing each as it arrives; --jq runs on each page`,
    )
    .option('--input <file>', 'the body as it is, from a file or - for stdin');
};

export type ApiOptions = OptionsOf<typeof define>;

export async function run(ctx: Context, opts: ApiOptions, service: string, path: string): Promise<number> {
  refuseOtherFormats(ctx);
  // The command line is checked whole, files and stdin read, before anything is sent.
  const headers = parseHeaders(opts.header ?? []);
  const input = opts.input === undefined ? undefined : await readBody(ctx, opts.input);
  const fields = await readFields(ctx, opts.rawField ?? [], opts.field ?? [], opts.input === '-');
  // Pages are read with GET, whatever fields there are (they go into the query).
  const method = opts.method ?? (opts.paginate ? 'GET' : undefined);
  const request = buildRequest(path, { method, fields, input }, bodyKindOf(service as ApiService));
  const start = opts.paginate ? pageStart(service, request) : undefined;
  const endpoint = await openService(ctx, service as ApiService);
  const send = (query: URLSearchParams) => sendRequest(endpoint, request, query, headers);
  if (start) {
    await printPages(ctx, endpoint.name, request, start, send, opts.include === true);
    return ExitCode.ok;
  }
  const answer = readAnswer(endpoint.name, await send(request.query));
  await printAnswer(ctx, answer, opts.include === true);
  if (answer.response.status >= 400) throw refusal(endpoint.name, answer);
  return ExitCode.ok;
}

/** One request: -H headers over trident's Accept and Content-Type, the service's authentication over all. */
function sendRequest(endpoint: ServiceEndpoint, request: RawRequest, query: URLSearchParams, headers: Record<string, string>) {
  const url = joinUrl(endpoint.baseUrl, request.path);
  url.search = query.toString();
  const contentType: Record<string, string> = request.contentType ? { 'content-type': request.contentType } : {};
  return endpoint.http.request({
    method: request.method,
    url,
    headers: () => ({ ...contentType, ...headers, ...endpoint.auth(request.method, url) }),
    body: request.body,
    accept: PRINTED_ERRORS,
  });
}

function bodyKindOf(service: ApiService) {
  return service === 'time' ? 'form' : 'json';
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

export const { register, definition } = defineCommand({
  define,
  examples: [
    'trident api keys /api_keys',
    "trident api keys /api_keys --jq '.api_keys[] | [.api_key, .name] | @tsv'",
    'trident api keys /api_keys/KEY_ID -X DELETE',
    "trident api time /projects --jq '.data | length'",
    "trident api time /projects -f 'name=New project' -F billable=true",
    "trident api catalog '/products?limit=2' --jq '.items[].title'",
    "trident api catalog /categories --paginate --jq '.items[].title'",
    'trident api catalog /healthz -i',
  ],
  run,
});
