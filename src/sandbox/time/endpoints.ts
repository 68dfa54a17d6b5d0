// The endpoints of the time sandbox: what each route does once the request got past method, auth and
// body checks (server.ts). Errors use the public service's body, `{"status": <code>, "message": "..."}`.
import { exactInteger } from '../../core/json/big-integers.js';
import type { Id } from '../../wire/time/ids.js';
import { json, type SandboxResponse } from '../http/server.js';
import { projectChanges } from './fields.js';
import { projectJson } from './project-json.js';
import { detailedReport } from './records.js';
import type { Project, TimeStore } from './store.js';
import type { TokenStore } from './tokens.js';

export const SANDBOX_TIME_USER: { email: string; password: string; accountId: string } = Object.freeze({
  email: 'demo@example.com',
  password: 'demo-password',
  accountId: '1',
});
export const SANDBOX_TIME_USER_ID = 1;

export function failure(status: number, message: string, headers?: Record<string, string>): SandboxResponse {
  return json(status, { status, message }, headers);
}

/** 200 with no body at all, as the service answers a revoke or a delete. */
const empty = (): SandboxResponse => ({ status: 200 });

export interface CallContext {
  /** Captures of the route pattern. */
  params: string[];
  /** The form body of a POST; empty otherwise. */
  form: URLSearchParams;
  /** The query string's parameters. */
  query: URLSearchParams;
  userAgent: string;
  /** The token the request was authenticated with (absent on public routes). */
  token?: string;
}

export type Endpoint = (call: CallContext) => SandboxResponse;

export interface TimeApi {
  login: Endpoint;
  revoke: Endpoint;
  listProjects: Endpoint;
  getProject: Endpoint;
  createProject: Endpoint;
  updateProject: Endpoint;
  deleteProject: Endpoint;
  updateCustomer: Endpoint;
  detailedReport: Endpoint;
}

/** The id a route captured (digits only): exact also past 2^53. */
const idParam = (params: string[]): Id => exactInteger(params[0]!);

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function isDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === value;
}

/** The report's query: both dates required, in order; sorting by date_execution, asc or desc. */
function reportQuery(query: URLSearchParams): { start: string; end: string; descending: boolean } | SandboxResponse {
  const dates: string[] = [];
  for (const name of ['date_execution_start', 'date_execution_end']) {
    const value = query.get(name);
    if (value === null || value === '') return failure(400, `${name} is required`);
    if (!isDate(value)) return failure(400, `${name} must be a date YYYY-MM-DD`);
    dates.push(value);
  }
  const [start, end] = dates as [string, string];
  if (start > end) return failure(400, 'date_execution_start must not be after date_execution_end');
  const sortBy = query.get('opt_sort_by') ?? 'date_execution';
  if (sortBy !== 'date_execution') return failure(400, 'opt_sort_by must be date_execution');
  const direction = query.get('opt_sort_direction') ?? 'asc';
  if (direction !== 'asc' && direction !== 'desc') return failure(400, 'opt_sort_direction must be asc or desc');
  return { start, end, descending: direction === 'desc' };
}

export function timeApi(store: TimeStore, tokens: TokenStore): TimeApi {
  const render = (project: Project) => projectJson(project, (id) => store.customer(id));
  const projectNotFound = () => failure(404, 'Project not found');
  const customerExists = (id: Id) => store.customer(id) !== undefined;

  return {
    login({ form, userAgent }) {
      const email = form.get('email')?.trim() ?? '';
      const password = form.get('password') ?? '';
      const accountId = form.get('account_id')?.trim();
      if (email === '') return failure(400, 'email is required');
      if (password === '') return failure(400, 'password is required');
      const matches =
        email.toLowerCase() === SANDBOX_TIME_USER.email &&
        password === SANDBOX_TIME_USER.password &&
        (accountId === undefined || accountId === '' || accountId === SANDBOX_TIME_USER.accountId);
      if (!matches) return failure(401, 'Invalid email, password or account');
      const token = tokens.issue(userAgent, SANDBOX_TIME_USER.accountId);
      return json(200, { token, account_id: SANDBOX_TIME_USER.accountId });
    },

    revoke({ token }) {
      if (token !== undefined) tokens.revoke(token);
      return empty();
    },

    listProjects() {
      return json(200, { data: store.projects().map(render) });
    },

    getProject({ params }) {
      const project = store.project(idParam(params));
      return project ? json(200, { data: render(project) }) : projectNotFound();
    },

    createProject({ form }) {
      if (form.get('name') === null) return failure(400, 'name is required');
      const result = projectChanges(form, customerExists);
      if (!result.ok) return failure(400, result.message);
      const project = store.createProject({ ...result.changes, name: result.changes.name! });
      return json(200, { data: render(project) });
    },

    updateProject({ params, form }) {
      const id = idParam(params);
      if (!store.project(id)) return projectNotFound();
      const result = projectChanges(form, customerExists);
      if (!result.ok) return failure(400, result.message);
      return json(200, { data: render(store.updateProject(id, result.changes)!) });
    },

    deleteProject({ params }) {
      return store.deleteProject(idParam(params)) ? empty() : projectNotFound();
    },

    detailedReport({ query }) {
      const parsed = reportQuery(query);
      return 'status' in parsed ? parsed : json(200, { data: detailedReport(store, parsed) });
    },

    updateCustomer({ params, form }) {
      const id = idParam(params);
      if (!store.customer(id)) return failure(404, 'Customer not found');
      const name = form.get('name')?.trim() ?? '';
      if (name === '') return failure(400, 'name must not be empty');
      if (name.length > 255) return failure(400, 'name must be at most 255 characters');
      return json(200, { data: store.renameCustomer(id, name) });
    },
  };
}
