// The time-tracker sandbox: HTTPS only, base path /api/v1, verbs GET/POST/DELETE, form bodies only, tokens
// bound to the User-Agent that created them and sent in any of the three ways (`Authorization: Bearer <token>`,
// `Authorization: <token>`, `x-api-token: <token>`).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startServer, type RunningServer, type SandboxRequest, type SandboxResponse } from '../http/server.js';
import { SANDBOX_TIME_USER, SANDBOX_TIME_USER_ID, failure, timeApi, type Endpoint, type TimeApi } from './endpoints.js';
import { projectJson } from './project-json.js';
import { TimeStore } from './store.js';
import { TokenStore, type TokenCheck } from './tokens.js';
import { makeSandboxTls, type SandboxTls } from '../http/tls.js';
import type { Id } from '../../wire/time/ids.js';

export { SANDBOX_TIME_USER };

export const TIME_BASE_PATH = '/api/v1';

export interface TimeSandboxOptions {
  host?: string;
  port?: number;
  tls?: SandboxTls;
  now?: () => number;
  /** If given, the CA certificate is written to `<dir>/ca.pem`. */
  dir?: string;
}

export interface TimeControl {
  /** A valid token for the seeded user, bound to that User-Agent. */
  issueToken(userAgent: string): string;
  hasToken(token: string): boolean;
  /** Every project, as the API renders it. */
  projects(): unknown[];
  customers(): Array<{ id: Id; name: string }>;
  /** Adds a customer with an id of the test's choosing (one past 2^53, say). */
  addCustomer(customer: { id: Id; name: string }): void;
  /** Adds a project with an id of the test's choosing; its other fields as a new project has them. */
  addProject(id: Id, fields: { name: string; customerId?: Id | null }): void;
}

export interface TimeSandbox {
  /** `https://127.0.0.1:PORT/api/v1` */
  url: string;
  caCertPem: string;
  caFile?: string;
  server: RunningServer;
  control: TimeControl;
  close(): Promise<void>;
}

type Verb = 'GET' | 'POST' | 'DELETE';
const VERBS: readonly string[] = ['GET', 'POST', 'DELETE'];

interface Route {
  pattern: RegExp;
  methods: Partial<Record<Verb, Endpoint>>;
  /** Reachable without a token. */
  open?: boolean;
}

function routes(api: TimeApi): Route[] {
  return [
    { pattern: /^\/auth$/, methods: { POST: api.login }, open: true },
    { pattern: /^\/auth\/revoke$/, methods: { GET: api.revoke } },
    { pattern: /^\/projects$/, methods: { GET: api.listProjects, POST: api.createProject } },
    { pattern: /^\/projects\/(\d+)$/, methods: { GET: api.getProject, POST: api.updateProject, DELETE: api.deleteProject } },
    { pattern: /^\/customers\/(\d+)$/, methods: { POST: api.updateCustomer } },
    { pattern: /^\/reports\/detailed$/, methods: { GET: api.detailedReport } },
  ];
}

/** Accepts `Bearer <token>` (as the public docs send it) and the bare token. */
export function tokenFromAuthorization(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const value = header.trim();
  const bearer = /^bearer\s+(.*)$/i.exec(value);
  const token = (bearer ? bearer[1]! : value).trim();
  return token === '' ? undefined : token;
}

/** The token from `Authorization` (either form), else from `x-api-token` (the service's newer docs). */
function tokenFromHeaders(req: SandboxRequest): string | undefined {
  const header = req.headers['x-api-token'];
  const apiToken = (Array.isArray(header) ? header[0] : header)?.trim();
  return tokenFromAuthorization(req.headers.authorization) ?? (apiToken ? apiToken : undefined);
}

const REFUSED: Record<Exclude<TokenCheck, { ok: true }>['reason'], string> = {
  unknown: 'Invalid API token',
  expired: 'API token expired after 30 days without use',
  'user-agent': 'API token used from a different User-Agent; the token has been destroyed',
};

function formBody(req: SandboxRequest): URLSearchParams | undefined {
  const type = req.headers['content-type'];
  const mediaType = type?.split(';')[0]!.trim().toLowerCase();
  if (mediaType === 'application/x-www-form-urlencoded') return new URLSearchParams(req.body.toString('utf8'));
  // A POST without a body and without a content type is an empty form.
  if (mediaType === undefined && req.body.length === 0) return new URLSearchParams();
  return undefined;
}

function dispatcher(table: Route[], tokens: TokenStore) {
  return (req: SandboxRequest): SandboxResponse => {
    const method = req.method.toUpperCase();
    if (!VERBS.includes(method)) {
      return failure(405, `Method ${method} not allowed; use GET, POST or DELETE`, { allow: VERBS.join(', ') });
    }
    if (req.path !== TIME_BASE_PATH && !req.path.startsWith(`${TIME_BASE_PATH}/`)) return failure(404, 'Not found');
    const path = req.path.slice(TIME_BASE_PATH.length).replace(/(.)\/$/, '$1');

    let params: string[] | undefined;
    const route = table.find((candidate) => {
      const match = candidate.pattern.exec(path);
      if (match) params = match.slice(1);
      return match !== null;
    });
    if (!route || !params) return failure(404, 'Not found');
    const endpoint = route.methods[method as Verb];
    if (!endpoint) {
      return failure(405, `Method ${method} not allowed here`, { allow: Object.keys(route.methods).join(', ') });
    }

    const userAgent = req.headers['user-agent'] ?? '';
    let token: string | undefined;
    if (!route.open) {
      token = tokenFromHeaders(req);
      if (token === undefined) return failure(401, 'Missing API token in the Authorization or x-api-token header');
      const check = tokens.use(token, userAgent);
      if (!check.ok) return failure(401, REFUSED[check.reason]);
    }

    let form = new URLSearchParams();
    if (method === 'POST') {
      const parsed = formBody(req);
      if (!parsed) return failure(400, 'Request body must be form-encoded');
      form = parsed;
    }
    return endpoint({ params, form, query: req.url.searchParams, userAgent, token });
  };
}

export async function startTimeSandbox(options: TimeSandboxOptions = {}): Promise<TimeSandbox> {
  const tls = options.tls ?? makeSandboxTls();
  const now = options.now ?? Date.now;
  const store = new TimeStore(now, SANDBOX_TIME_USER_ID);
  const tokens = new TokenStore(now);

  let caFile: string | undefined;
  if (options.dir !== undefined) {
    await mkdir(options.dir, { recursive: true });
    caFile = join(options.dir, 'ca.pem');
    await writeFile(caFile, tls.caCertPem);
  }

  const server = await startServer({
    host: options.host,
    port: options.port,
    tls: { key: tls.keyPem, cert: tls.certPem },
    handler: dispatcher(routes(timeApi(store, tokens)), tokens),
  });

  const control: TimeControl = {
    issueToken: (userAgent) => tokens.issue(userAgent, SANDBOX_TIME_USER.accountId),
    hasToken: (token) => tokens.has(token),
    projects: () => store.projects().map((project) => projectJson(project, (id) => store.customer(id))),
    customers: () => store.customers(),
    addCustomer: (customer) => store.addCustomer(customer),
    addProject: (id, fields) => void store.createProject(fields, id),
  };

  return {
    url: `${server.origin}${TIME_BASE_PATH}`,
    caCertPem: tls.caCertPem,
    caFile,
    server,
    control,
    close: () => server.close(),
  };
}
