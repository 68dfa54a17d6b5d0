// What `trident api` sends, from its command line: the method (any, as gh api sends any), the path (checked: it
// starts with "/" and has no dot segments, backslashes or encoded separators), the query, and the body built
// from the fields (JSON for keys, a form for time) or --input.
import { usageError } from '../core/errors.js';
import { oneLine } from '../core/term/printable.js';
import type { Method } from '../core/http/retry.js';
import { jsonBody, textPairs, type Field } from './fields.js';

export type BodyKind = 'json' | 'form';

export interface RawRequest {
  method: Method;
  /** Below the service's base URL, without the query. */
  path: string;
  query: URLSearchParams;
  body?: string;
  contentType?: string;
}

export interface RequestInput {
  method?: string;
  fields: Field[];
  /** The text of --input, read already. */
  input?: string;
}

const CONTENT_TYPES: Record<BodyKind, string> = { json: 'application/json', form: 'application/x-www-form-urlencoded' };

/** Methods whose fields go into the query: they send no body. */
const QUERY_METHODS = new Set(['GET', 'HEAD', 'DELETE']);

/** An HTTP method is a token (RFC 9110). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** As gh api: POST when there are fields or --input, else GET; with GET the fields go into the query. */
export function buildRequest(pathAndQuery: string, input: RequestInput, bodyKind: BodyKind): RawRequest {
  const { path, query } = splitPath(pathAndQuery);
  const method = chooseMethod(input);
  const { fields } = input;
  if (input.input !== undefined && fields.length > 0) throw usageError('-f/-F and --input both give a body: use one of them');
  if (QUERY_METHODS.has(method)) {
    if (input.input !== undefined) throw usageError(`--input gives a body, which a ${method} request does not send`, 'add -X POST');
    for (const [key, value] of textPairs(fields)) query.append(key, value);
    return { method, path, query };
  }
  if (input.input !== undefined) return { method, path, query, body: input.input, contentType: CONTENT_TYPES[bodyKind] };
  if (fields.length === 0) return { method, path, query };
  const body = bodyKind === 'json' ? jsonBody(fields) : new URLSearchParams(textPairs(fields)).toString();
  return { method, path, query, body, contentType: CONTENT_TYPES[bodyKind] };
}

/** Any method the service may know, in capitals (-X patch is PATCH); what it does not accept, it answers. */
function chooseMethod(input: RequestInput): Method {
  if (input.method === undefined) return input.fields.length > 0 || input.input !== undefined ? 'POST' : 'GET';
  const method = input.method.toUpperCase();
  if (!TOKEN.test(method)) throw usageError(`invalid -X "${oneLine(input.method, 100)}": a method is one word, e.g. GET, PUT, PATCH`);
  // CONNECT asks for a tunnel, not for a resource: there would be no answer to print.
  if (method === 'CONNECT') throw usageError('-X CONNECT is refused: it opens a tunnel, which trident api does not use');
  return method;
}

/**
 * "/api_keys?limit=5" → the path and its query; a path must start with "/" and have no "." or ".." segment,
 * plain or percent-encoded, and no backslash or encoded separator that could make one.
 */
export function splitPath(value: string): { path: string; query: URLSearchParams } {
  const at = value.search(/[?#]/);
  const path = at < 0 ? value : value.slice(0, at);
  if (!path.startsWith('/') || path.startsWith('//')) {
    throw usageError(
      `invalid path "${value}": it must start with one "/" (below the service's base URL)`,
      'e.g. trident api keys /api_keys',
    );
  }
  if (value[at] === '#') throw usageError(`invalid path "${value}": a fragment is never sent`);
  // A URL parser reads "\" in an http(s) path as "/" (so "/a\..\x" is "/x"), and a server may decode "%2f"
  // and "%5c" into separators after the dot segments were checked: either would climb out of the base path.
  if (/\\|%2f|%5c/i.test(path)) {
    throw usageError(
      `invalid path "${value}": "\\", "%2f" and "%5c" are refused: they can lead out of the service's base path`,
      'separate segments with "/"',
    );
  }
  const segments = path.split('/').map(decodeSegment);
  if (segments.some((segment) => segment === '.' || segment === '..'))
    throw usageError(`invalid path "${value}": "." and ".." segments are refused`);
  if (/[\s\u0000-\u001f\u007f]/.test(path))
    throw usageError(`invalid path "${value}": it has blanks or control characters (percent-encode them)`);
  return { path, query: new URLSearchParams(at < 0 ? '' : value.slice(at + 1)) };
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw usageError(`invalid path segment "${segment}": broken percent-encoding`);
  }
}
