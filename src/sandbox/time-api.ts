// The endpoints of the time sandbox: what each route does once the request got past method, auth and
// body checks (time-server.ts). Errors use the public service's body, `{"status": <code>, "message": "..."}`.
import { json, type SandboxResponse } from './server-core.js';
import { projectChanges } from './time-fields.js';
import { projectJson } from './time-project-json.js';
import type { Project, TimeStore } from './time-store.js';
import type { TokenStore } from './time-tokens.js';

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
}

export function timeApi(store: TimeStore, tokens: TokenStore): TimeApi {
  const render = (project: Project) => projectJson(project, (id) => store.customer(id));
  const projectNotFound = () => failure(404, 'Project not found');
  const customerExists = (id: number) => store.customer(id) !== undefined;

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
      const project = store.project(Number(params[0]));
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
      const id = Number(params[0]);
      if (!store.project(id)) return projectNotFound();
      const result = projectChanges(form, customerExists);
      if (!result.ok) return failure(400, result.message);
      return json(200, { data: render(store.updateProject(id, result.changes)!) });
    },

    deleteProject({ params }) {
      return store.deleteProject(Number(params[0])) ? empty() : projectNotFound();
    },

    updateCustomer({ params, form }) {
      const id = Number(params[0]);
      if (!store.customer(id)) return failure(404, 'Customer not found');
      const name = form.get('name')?.trim() ?? '';
      if (name === '') return failure(400, 'name must not be empty');
      if (name.length > 255) return failure(400, 'name must be at most 255 characters');
      return json(200, { data: store.renameCustomer(id, name) });
    },
  };
}
