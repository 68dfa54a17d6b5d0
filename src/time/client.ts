// A typed client for the hosted time tracker's REST API v1: form-encoded bodies, JSON answers normalized at
// this boundary, the token in the Authorization header. No commander, no printing, no settings: the caller
// hands in everything.
import { ExitCode, TridentError, notFoundError } from '../core/errors.js';
import type { HttpClient, HttpResponse, OnRateLimited, RequestOptions } from '../core/http/client.js';
import type { Method } from '../core/http/retry.js';
import { serviceMessage } from '../core/http/service-message.js';
import { joinUrl, type QueryValue } from '../core/http/url.js';
import { jsonOrUndefined } from '../core/json/parse.js';
import type { Id } from '../wire/time/ids.js';
import {
  isObject,
  normalizeCustomer,
  normalizeProject,
  normalizeProjectList,
  unwrapData,
  type Customer,
  type Project,
} from './normalize.js';

export const AUTH_SCHEMES = ['bearer', 'raw', 'x-api-token'] as const;
export type AuthScheme = (typeof AUTH_SCHEMES)[number];

/** Form fields of a project create or update, already in the service's spelling (`privacy=1`, `active=true`). */
export type ProjectForm = Record<string, string>;

export interface Credentials {
  email: string;
  password: string;
  accountId?: string;
}

export interface LoginResult {
  token: string;
  accountId: string | null;
}

export interface TimeClientOptions {
  http: HttpClient;
  baseUrl: URL;
  /** Needed by every call but login. */
  token?: string;
  /** Where the token came from, for what a refused one tells to do: TRIDENT_TIME_TOKEN wins over a new login. */
  tokenSource?: 'env' | 'file' | 'stored';
  authScheme?: AuthScheme;
}

/** `Bearer <token>` as the service's public docs show it, or the bare token, which it also takes. */
export function authorizationHeader(token: string, scheme: Exclude<AuthScheme, 'x-api-token'> = 'bearer'): string {
  return scheme === 'raw' ? token : `Bearer ${token}`;
}

/** The header that carries the token: Authorization, or `x-api-token` as the service's newer docs send it. */
export function tokenHeader(token: string, scheme: AuthScheme = 'bearer'): Record<string, string> {
  return scheme === 'x-api-token' ? { 'x-api-token': token } : { authorization: authorizationHeader(token, scheme) };
}

/** What to do about a token the service refused, by where it came from. */
function authHint(source: TimeClientOptions['tokenSource']): string {
  const why = 'the token is unknown, was revoked, went unused for 30 days or was used from another User-Agent';
  if (source === 'env') return `${why}; it is TRIDENT_TIME_TOKEN's, which wins over a login: set a valid one, or unset it`;
  if (source === 'file') return `${why}; it is --token-file's: put a valid token there, or leave the flag out and log in`;
  return `${why}; log in again: trident time login`;
}

export class TimeClient {
  constructor(private readonly options: TimeClientOptions) {}

  /** `POST /auth`: a new token, bound by the service to the User-Agent of this client. */
  async login(credentials: Credentials): Promise<LoginResult> {
    const form: Record<string, string> = { email: credentials.email, password: credentials.password };
    if (credentials.accountId !== undefined) form.account_id = credentials.accountId;
    const body = await this.json('POST', 'auth', { form, authenticated: false });
    const token = isObject(body) && typeof body.token === 'string' && body.token !== '' ? body.token : undefined;
    if (!token) throw unexpectedAnswer('POST /auth', 'no token in the answer');
    const accountId = isObject(body) && body.account_id !== undefined && body.account_id !== null ? String(body.account_id) : null;
    return { token, accountId };
  }

  /** `GET /auth/revoke`. False when the service no longer knew the token (401). */
  async revoke(): Promise<boolean> {
    const response = await this.send('GET', 'auth/revoke', { accept: [401] });
    return response.status !== 401;
  }

  async listProjects(): Promise<Project[]> {
    return this.shaped('GET /projects', await this.json('GET', 'projects'), normalizeProjectList);
  }

  async getProject(id: Id): Promise<Project> {
    return this.shaped(`GET /projects/${id}`, await this.json('GET', `projects/${id}`), projectOf);
  }

  async createProject(form: ProjectForm): Promise<Project> {
    return this.shaped('POST /projects', await this.json('POST', 'projects', { form }), projectOf);
  }

  /** Partial update: only the fields in `form` change. */
  async updateProject(id: Id, form: ProjectForm): Promise<Project> {
    return this.shaped(`POST /projects/${id}`, await this.json('POST', `projects/${id}`, { form }), projectOf);
  }

  /**
   * `DELETE /projects/{id}`. A retried delete that finds the project gone reports `alreadyDeleted` when an
   * earlier attempt may have done the work; a 404 otherwise (first try, or after a 429) is "not found" (exit 5).
   */
  async deleteProject(id: Id): Promise<{ alreadyDeleted: boolean }> {
    const response = await this.send('DELETE', `projects/${id}`, { accept: [404], deleteIsRetrySafe: true });
    if (response.status !== 404) return { alreadyDeleted: false };
    if (response.earlierAttemptMayHaveTakenEffect) return { alreadyDeleted: true };
    const { message } = serviceMessage(jsonOrUndefined(response.text()));
    throw notFoundError(`time service answered 404: ${message ?? `project ${id} not found`}`, {
      status: 404,
      requestId: response.requestId,
      hint: 'list the projects with: trident time projects --status all',
    });
  }

  /** `POST /customers/{id}` with the new name; `onRateLimited` is told of each 429 (a batch paces itself by them). */
  async updateCustomer(id: Id, name: string, onRateLimited?: OnRateLimited): Promise<Customer> {
    const body = await this.json('POST', `customers/${id}`, { form: { name }, onRateLimited });
    // The service's answer is not documented; without one, say what was asked for.
    if (body === undefined) return { id, name };
    return this.shaped(`POST /customers/${id}`, body, (raw) => normalizeCustomer(unwrapData(raw)));
  }

  /**
   * `GET /reports/detailed` for the days from `from` to `to` (YYYY-MM-DD, both included), by date: one row per
   * time record, as the service sent it. Experimental: the endpoint is not in the service's published docs.
   */
  async detailedReport(from: string, to: string): Promise<Array<Record<string, unknown>>> {
    const query = { date_execution_start: from, date_execution_end: to, opt_sort_by: 'date_execution', opt_sort_direction: 'asc' };
    const rows = unwrapData(await this.json('GET', 'reports/detailed', { query }));
    if (!Array.isArray(rows) || !rows.every(isObject)) throw unexpectedAnswer('GET /reports/detailed', 'no list of rows in "data"');
    return rows;
  }

  private async json(method: Method, path: string, call: Call = {}): Promise<unknown> {
    const response = await this.send(method, path, call);
    return parseJson(response);
  }

  private async send(method: Method, path: string, call: Call = {}): Promise<HttpResponse> {
    const headers: Record<string, string> = {};
    if (call.authenticated !== false) {
      if (!this.options.token) throw new TridentError(ExitCode.auth, 'no time tracker token', { hint: 'trident time login' });
      Object.assign(headers, tokenHeader(this.options.token, this.options.authScheme));
    }
    let body: string | undefined;
    if (call.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(call.form).toString();
    }
    const request: RequestOptions = {
      method,
      url: joinUrl(this.options.baseUrl, path, call.query),
      headers,
      body,
      accept: call.accept,
      deleteIsRetrySafe: call.deleteIsRetrySafe,
      onRateLimited: call.onRateLimited,
    };
    try {
      return await this.options.http.request(request);
    } catch (error) {
      if (error instanceof TridentError && error.status === 401 && call.authenticated !== false) {
        throw new TridentError(ExitCode.auth, error.message, {
          status: 401,
          requestId: error.requestId,
          hint: authHint(this.options.tokenSource),
          cause: error,
        });
      }
      throw error;
    }
  }

  private shaped<T>(what: string, body: unknown, normalize: (body: unknown) => T): T {
    try {
      return normalize(body);
    } catch (error) {
      if (error instanceof TypeError) throw unexpectedAnswer(what, error.message);
      throw error;
    }
  }
}

interface Call {
  form?: Record<string, string>;
  accept?: number[];
  deleteIsRetrySafe?: boolean;
  authenticated?: boolean;
  query?: Record<string, QueryValue>;
  onRateLimited?: OnRateLimited;
}

function projectOf(body: unknown): Project {
  return normalizeProject(unwrapData(body));
}

/** The body as JSON, ids beyond 2^53 as bigint; undefined for an empty body (revoke and delete answer 200 with nothing). */
function parseJson(response: HttpResponse): unknown {
  if (response.body.length === 0 || response.text().trim() === '') return undefined;
  return response.json({ bigIntegers: true });
}

function unexpectedAnswer(what: string, detail: string): TridentError {
  return new TridentError(ExitCode.unavailable, `unexpected answer from the time service to ${what}: ${detail}`, {
    hint: 'run again with --debug to see the answer',
  });
}
