// Route matching the way Starlette does it for the catalog service: the percent-decoded path against each
// route in declaration order, `{name}` matching one non-empty segment; a known path with another method is
// 405, an unknown one 404, and a trailing slash is redirected away when that names a route.
import type { SandboxRequest, SandboxResponse } from '../http/server.js';

export interface RouteContext {
  request: SandboxRequest;
  query: URLSearchParams;
  params: Record<string, string>;
}

export interface Route {
  path: string;
  handle: (context: RouteContext) => SandboxResponse;
}

type Matcher = { route: Route; segments: string[] };

export function createRouter(routes: Route[]): (request: SandboxRequest) => SandboxResponse {
  const matchers: Matcher[] = routes.map((route) => ({ route, segments: route.path.split('/').slice(1) }));

  const find = (path: string): { route: Route; params: Record<string, string> } | null => {
    const parts = path.split('/').slice(1);
    for (const matcher of matchers) {
      const params = matchSegments(matcher.segments, parts);
      if (params) return { route: matcher.route, params };
    }
    return null;
  };

  return (request) => {
    const path = unquote(request.path);
    const found = find(path);
    if (!found) {
      if (path !== '/' && path.endsWith('/') && find(path.replace(/\/+$/, ''))) {
        const host = request.headers.host ?? request.url.host;
        const location = `http://${host}${request.path.replace(/\/+$/, '')}${request.url.search}`;
        return { status: 307, headers: { location } };
      }
      return { status: 404, body: { detail: 'Not Found' } };
    }
    if (request.method !== 'GET') return { status: 405, headers: { allow: 'GET' }, body: { detail: 'Method Not Allowed' } };
    return found.route.handle({ request, query: request.url.searchParams, params: found.params });
  };
}

function matchSegments(pattern: string[], parts: string[]): Record<string, string> | null {
  if (pattern.length !== parts.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i += 1) {
    const expected = pattern[i]!;
    const actual = parts[i]!;
    if (expected.startsWith('{') && expected.endsWith('}')) {
      if (!actual) return null;
      params[expected.slice(1, -1)] = actual;
    } else if (expected !== actual) {
      return null;
    }
  }
  return params;
}

/** Python's `unquote`: percent-escapes decoded as UTF-8, bad bytes replaced, malformed escapes left alone. */
function unquote(path: string): string {
  return path.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => Buffer.from(run.replaceAll('%', ''), 'hex').toString('utf8'));
}
