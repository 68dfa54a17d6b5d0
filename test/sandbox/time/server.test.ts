import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_TIME_USER, startTimeSandbox, type TimeSandbox, type TimeSandboxOptions } from '../../../src/sandbox/time/server.js';
import { makeSandboxTls, type SandboxTls } from '../../../src/sandbox/http/tls.js';

const UA = 'trident-cli';
const DAY_MS = 24 * 60 * 60 * 1000;

interface Call {
  token?: string;
  /** How the token is sent; default Bearer. */
  scheme?: 'bearer' | 'raw' | 'x-api-token';
  userAgent?: string;
  form?: Record<string, string>;
  json?: unknown;
}

interface Answer {
  status: number;
  text: string;
  body: any;
}

let tls: SandboxTls;
let agent: Agent;
let sandbox: TimeSandbox | undefined;

beforeAll(() => {
  tls = makeSandboxTls();
  agent = new Agent({ connect: { ca: tls.caCertPem } });
});
afterAll(() => agent.close());
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

async function start(options: TimeSandboxOptions = {}): Promise<TimeSandbox> {
  sandbox = await startTimeSandbox({ tls, ...options });
  return sandbox;
}

async function call(sb: TimeSandbox, method: string, path: string, options: Call = {}): Promise<Answer> {
  const headers: Record<string, string> = { 'user-agent': options.userAgent ?? UA };
  if (options.token !== undefined) {
    if (options.scheme === 'x-api-token') headers['x-api-token'] = options.token;
    else headers.authorization = options.scheme === 'raw' ? options.token : `Bearer ${options.token}`;
  }
  let body: string | undefined;
  if (options.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  } else if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  }
  const response = await request(`${sb.url}${path}`, { method: method as 'GET', headers, body, dispatcher: agent });
  const text = await response.body.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.statusCode, text, body: parsed };
}

async function login(sb: TimeSandbox, userAgent = UA): Promise<string> {
  const answer = await call(sb, 'POST', '/auth', {
    userAgent,
    form: { email: SANDBOX_TIME_USER.email, password: SANDBOX_TIME_USER.password, account_id: SANDBOX_TIME_USER.accountId },
  });
  expect(answer.status).toBe(200);
  return answer.body.token as string;
}

function expectError(answer: Answer, status: number, message?: string | RegExp): void {
  expect(answer.status).toBe(status);
  expect(answer.body).toEqual({ status, message: expect.any(String) });
  if (message !== undefined) expect(answer.body.message).toMatch(message);
}

describe('time sandbox: transport', () => {
  it('serves HTTPS under /api/v1 on loopback and writes its CA when given a dir', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'trident-time-'));
    try {
      const sb = await start({ dir });
      expect(sb.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
      expect(sb.caFile).toBe(join(dir, 'ca.pem'));
      expect(await readFile(sb.caFile!, 'utf8')).toBe(tls.caCertPem);
      expect(sb.caCertPem).toBe(tls.caCertPem);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('makes its own certificates when none are given', async () => {
    const sb = await startTimeSandbox();
    try {
      const own = new Agent({ connect: { ca: sb.caCertPem } });
      const response = await request(`${sb.url}/projects`, { dispatcher: own });
      await response.body.dump();
      expect(response.statusCode).toBe(401);
      await own.close();
    } finally {
      await sb.close();
    }
  });

  it('fails a plain-HTTP request to its port', async () => {
    const sb = await start();
    const plain = new Agent();
    try {
      await expect(request(`http://127.0.0.1:${sb.server.port}/api/v1/projects`, { dispatcher: plain })).rejects.toThrow();
    } finally {
      await plain.close();
    }
  });

  it('refuses verbs other than GET, POST and DELETE with 405', async () => {
    const sb = await start();
    const token = await login(sb);
    expectError(await call(sb, 'PUT', '/projects/57', { token, form: { name: 'x' } }), 405);
    expectError(await call(sb, 'PATCH', '/projects/57', { token, form: { name: 'x' } }), 405);
    // A known route with a verb it does not take.
    expectError(await call(sb, 'DELETE', '/projects', { token }), 405);
    expectError(await call(sb, 'GET', '/customers/3', { token }), 405);
  });

  it('answers 404 for unknown routes', async () => {
    const sb = await start();
    const token = await login(sb);
    expectError(await call(sb, 'GET', '/nothing-here', { token }), 404);
    expectError(await call(sb, 'GET', '/projects/57/tasks', { token }), 404);
    const outside = await request(`${sb.server.origin}/api/v2/projects`, { dispatcher: agent });
    expect(outside.statusCode).toBe(404);
    await outside.body.dump();
  });

  it('passes injected faults through', async () => {
    const sb = await start();
    const token = await login(sb);
    sb.server.faults.add({ method: 'GET', path: '/api/v1/projects', fault: { kind: 'status', status: 503 } });
    expect((await call(sb, 'GET', '/projects', { token })).status).toBe(503);
    expect((await call(sb, 'GET', '/projects', { token })).status).toBe(200);
  });
});

describe('time sandbox: authentication', () => {
  it('logs in and lists projects with a stable User-Agent', async () => {
    const sb = await start();
    const answer = await call(sb, 'POST', '/auth', {
      form: { email: SANDBOX_TIME_USER.email, password: SANDBOX_TIME_USER.password, account_id: '1' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ token: expect.stringMatching(/^\S{20,}$/), account_id: '1' });
    const token = answer.body.token as string;
    expect(sb.control.hasToken(token)).toBe(true);

    for (let i = 0; i < 3; i++) {
      const projects = await call(sb, 'GET', '/projects', { token });
      expect(projects.status).toBe(200);
      expect(projects.body.data.length).toBeGreaterThanOrEqual(6);
    }
    // Each login gets its own token.
    expect(await login(sb)).not.toBe(token);
  });

  it('refuses wrong credentials with 401', async () => {
    const sb = await start();
    const base = { email: SANDBOX_TIME_USER.email, password: SANDBOX_TIME_USER.password, account_id: '1' };
    expectError(await call(sb, 'POST', '/auth', { form: { ...base, password: 'wrong' } }), 401);
    expectError(await call(sb, 'POST', '/auth', { form: { ...base, email: 'someone@example.com' } }), 401);
    expectError(await call(sb, 'POST', '/auth', { form: { ...base, account_id: '2' } }), 401);
  });

  it('accepts both "Bearer <token>" and the bare token', async () => {
    const sb = await start();
    const token = await login(sb);
    expect((await call(sb, 'GET', '/projects/57', { token, scheme: 'bearer' })).status).toBe(200);
    expect((await call(sb, 'GET', '/projects/57', { token, scheme: 'raw' })).status).toBe(200);
  });

  it('accepts the token in an x-api-token header too, bound to its User-Agent all the same', async () => {
    const sb = await start();
    const token = await login(sb);
    expect((await call(sb, 'GET', '/projects/57', { token, scheme: 'x-api-token' })).status).toBe(200);
    expectError(await call(sb, 'GET', '/projects', { token: 'not-a-token', scheme: 'x-api-token' }), 401, 'Invalid API token');
    expectError(
      await call(sb, 'GET', '/projects', { token: ' ', scheme: 'x-api-token' }),
      401,
      'Missing API token in the Authorization or x-api-token header',
    );
    expectError(await call(sb, 'GET', '/projects', { token, scheme: 'x-api-token', userAgent: 'curl/8' }), 401, /User-Agent/);
    expect(sb.control.hasToken(token)).toBe(false);
  });

  it('refuses a missing or unknown token with 401', async () => {
    const sb = await start();
    expectError(await call(sb, 'GET', '/projects'), 401);
    expectError(await call(sb, 'GET', '/projects', { token: 'not-a-token' }), 401);
    expectError(await call(sb, 'GET', '/projects', { token: 'not-a-token', scheme: 'raw' }), 401);
  });

  it('destroys a token used from another User-Agent', async () => {
    const sb = await start();
    const token = await login(sb, 'trident-cli');
    expect((await call(sb, 'GET', '/projects', { token, userAgent: 'trident-cli' })).status).toBe(200);

    expectError(await call(sb, 'GET', '/projects', { token, userAgent: 'trident-cli/0.2.0' }), 401, /User-Agent/);
    expect(sb.control.hasToken(token)).toBe(false);
    // The right User-Agent cannot bring it back.
    expectError(await call(sb, 'GET', '/projects', { token, userAgent: 'trident-cli' }), 401);
  });

  it('binds tokens issued through the control to the given User-Agent', async () => {
    const sb = await start();
    const token = sb.control.issueToken('sandbox-profile');
    expect((await call(sb, 'GET', '/projects', { token, userAgent: 'sandbox-profile' })).status).toBe(200);
    expectError(await call(sb, 'GET', '/projects', { token, userAgent: 'curl/8.0' }), 401);
    expect(sb.control.hasToken(token)).toBe(false);
  });

  it('revokes a token with GET /auth/revoke (200, empty body)', async () => {
    const sb = await start();
    const token = await login(sb);
    const other = await login(sb);
    const answer = await call(sb, 'GET', '/auth/revoke', { token });
    expect(answer.status).toBe(200);
    expect(answer.text).toBe('');
    expect(sb.control.hasToken(token)).toBe(false);
    expectError(await call(sb, 'GET', '/projects', { token }), 401);
    expectError(await call(sb, 'GET', '/auth/revoke', { token }), 401);
    // Only that token.
    expect((await call(sb, 'GET', '/projects', { token: other })).status).toBe(200);
  });

  it('destroys tokens unused for 30 days', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const sb = await start({ now: () => now });
    const token = await login(sb);
    const idle = await login(sb);

    now += 29 * DAY_MS;
    // A use resets the idle time.
    expect((await call(sb, 'GET', '/projects', { token })).status).toBe(200);
    now += 2 * DAY_MS;
    expect(sb.control.hasToken(idle)).toBe(false);
    expectError(await call(sb, 'GET', '/projects', { token: idle }), 401);

    expect((await call(sb, 'GET', '/projects', { token })).status).toBe(200);
    now += 30 * DAY_MS;
    expectError(await call(sb, 'GET', '/projects', { token }), 401);
    expect(sb.control.hasToken(token)).toBe(false);
  });
});

describe('time sandbox: form bodies', () => {
  it('refuses a JSON body with 400', async () => {
    const sb = await start();
    const token = await login(sb);
    const json = await call(sb, 'POST', '/projects', { token, json: { name: 'JSON project' } });
    expect(json.status).toBe(400);
    expect(json.body).toEqual({ status: 400, message: 'Request body must be form-encoded' });
    const jsonLogin = await call(sb, 'POST', '/auth', {
      json: { email: SANDBOX_TIME_USER.email, password: SANDBOX_TIME_USER.password, account_id: '1' },
    });
    expect(jsonLogin.body).toEqual({ status: 400, message: 'Request body must be form-encoded' });
    expect((await call(sb, 'GET', '/projects', { token })).body.data.some((p: any) => p.name === 'JSON project')).toBe(false);
  });

  it('accepts a form content type with a charset and keeps UTF-8 intact', async () => {
    const sb = await start();
    const token = await login(sb);
    const name = 'Café — naïve, "quoted" & 東京 + more';
    const response = await request(`${sb.url}/projects`, {
      method: 'POST',
      dispatcher: agent,
      headers: {
        'user-agent': UA,
        authorization: `Bearer ${token}`,
        'content-type': 'application/x-www-form-urlencoded; charset=UTF-8',
      },
      body: new URLSearchParams({ name }).toString(),
    });
    expect(response.statusCode).toBe(200);
    expect(((await response.body.json()) as any).data.name).toBe(name);
  });
});

describe('time sandbox: projects', () => {
  it('lists active and archived projects in the loose shapes of the real service', async () => {
    const sb = await start();
    const token = await login(sb);
    const { data } = (await call(sb, 'GET', '/projects', { token })).body as { data: any[] };

    expect(new Set(data.map((p) => p.status))).toEqual(new Set(['active', 'archived']));
    const names = data.map((p) => p.name as string);
    expect(names.some((n) => /[^\x00-\x7f]/.test(n))).toBe(true);
    expect(names.some((n) => n.includes(','))).toBe(true);
    expect(names.some((n) => n.includes('"'))).toBe(true);
    expect(names).toContain('Проект Альфа');
    expect(names).toContain('東京オフィス');

    for (const p of data) {
      expect(p).toMatchObject({
        id: expect.any(Number),
        privacy: expect.any(Number),
        privacy_s: expect.stringMatching(/^(public|private)$/),
        status: expect.stringMatching(/^(active|archived)$/),
        bill_by: expect.stringMatching(/^(project|user)$/),
        time_total: expect.stringMatching(/^\d{2,}:\d{2}:\d{2}$/),
        date_created: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{4}$/),
        deleted_by: null,
      });
      for (const key of [
        'customer_id',
        'customer_name',
        'created_by',
        'is_member',
        'is_manager',
        'total_members',
        'total_active_tasks',
        'rate',
        'value_total',
        'description',
      ]) {
        expect(p).toHaveProperty(key);
      }
      expect('date_changed' in p || 'date_updated' in p).toBe(true);
      expect(Boolean(p.active)).toBe(p.status === 'active');
    }
    // Both spellings of the change time, and of booleans, appear.
    expect(data.some((p) => 'date_changed' in p)).toBe(true);
    expect(data.some((p) => 'date_updated' in p)).toBe(true);
    const bools = data.flatMap((p) => [p.active, p.billable, p.template, p.required_task]);
    expect(bools.some((b) => typeof b === 'boolean')).toBe(true);
    expect(bools.some((b) => b === 0 || b === 1)).toBe(true);
    expect(data.some((p) => p.rate === null && p.value_total === null && p.description === null)).toBe(true);

    expect(sb.control.projects()).toEqual(data);
    expect(sb.control.customers().length).toBeGreaterThanOrEqual(3);
  });

  it('creates, reads, updates only the sent fields, archives, restores and deletes a project', async () => {
    const now = Date.parse('2026-03-04T05:06:07Z');
    const sb = await start({ now: () => now });
    const token = await login(sb);

    const created = await call(sb, 'POST', '/projects', {
      token,
      form: { name: 'New Project', customer_id: '3', billable: 'true', rate: '80.50', privacy: '1' },
    });
    expect(created.status).toBe(200);
    const project = created.body.data;
    expect(project).toMatchObject({
      name: 'New Project',
      customer_id: 3,
      customer_name: 'Müller & Söhne',
      privacy: 1,
      privacy_s: 'public',
      bill_by: 'project',
      status: 'active',
      description: null,
      time_total: '00:00:00',
      date_created: '2026-03-04T03:06:07-0200',
    });
    expect(Boolean(project.billable)).toBe(true);
    expect(Number(project.rate)).toBe(80.5);

    const id = project.id as number;
    expect((await call(sb, 'GET', `/projects/${id}`, { token })).body).toEqual({ data: project });

    const renamed = await call(sb, 'POST', `/projects/${id}`, { token, form: { name: 'Renamed' } });
    expect(renamed.status).toBe(200);
    const { name: _a, date_changed: _b, date_updated: _c, ...unchanged } = project;
    const { name, date_changed: _d, date_updated: _e, ...after } = renamed.body.data;
    expect(name).toBe('Renamed');
    expect(after).toEqual(unchanged);
    expect(renamed.body.data.date_changed ?? renamed.body.data.date_updated).toBe('2026-03-04T03:06:07-0200');

    const archived = await call(sb, 'POST', `/projects/${id}`, { token, form: { active: 'false' } });
    expect(archived.body.data.status).toBe('archived');
    expect(Boolean(archived.body.data.active)).toBe(false);
    expect(archived.body.data.name).toBe('Renamed');
    const listed = (await call(sb, 'GET', '/projects', { token })).body.data.find((p: any) => p.id === id);
    expect(listed.status).toBe('archived');

    const restored = await call(sb, 'POST', `/projects/${id}`, { token, form: { active: '1' } });
    expect(restored.body.data.status).toBe('active');

    const deleted = await call(sb, 'DELETE', `/projects/${id}`, { token });
    expect(deleted.status).toBe(200);
    expect(deleted.text).toBe('');
    expectError(await call(sb, 'GET', `/projects/${id}`, { token }), 404, /^Project not found$/);
    expectError(await call(sb, 'DELETE', `/projects/${id}`, { token }), 404, /^Project not found$/);
  });

  it('answers 404 "Project not found" for unknown ids', async () => {
    const sb = await start();
    const token = await login(sb);
    expect((await call(sb, 'GET', '/projects/9999', { token })).body).toEqual({ status: 404, message: 'Project not found' });
    expect((await call(sb, 'POST', '/projects/9999', { token, form: { name: 'x' } })).body).toEqual({
      status: 404,
      message: 'Project not found',
    });
    expect((await call(sb, 'DELETE', '/projects/9999', { token })).body).toEqual({ status: 404, message: 'Project not found' });
  });

  it('validates the writable fields and names the bad one', async () => {
    const sb = await start();
    const token = await login(sb);
    const bad: Array<[Record<string, string>, RegExp]> = [
      [{ active: 'maybe' }, /active/],
      [{ billable: 'yes' }, /billable/],
      [{ required_task: '2' }, /required_task/],
      [{ template: '' }, /template/],
      [{ privacy: '3' }, /privacy/],
      [{ customer_id: '999' }, /customer_id/],
      [{ customer_id: 'abc' }, /customer_id/],
      [{ bill_by: 'hour' }, /bill_by/],
      [{ rate: 'abc' }, /rate/],
      [{ rate: '-5' }, /rate/],
      [{ name: '   ' }, /name/],
    ];
    const before = (await call(sb, 'GET', '/projects/57', { token })).body.data;
    for (const [form, message] of bad) {
      expectError(await call(sb, 'POST', '/projects/57', { token, form }), 400, message);
    }
    expect((await call(sb, 'GET', '/projects/57', { token })).body.data).toEqual(before);

    expectError(await call(sb, 'POST', '/projects', { token, form: { description: 'no name' } }), 400, /name/);
    expectError(await call(sb, 'POST', '/projects', { token, form: { name: 'ok', privacy: '0' } }), 400, /privacy/);
  });

  it('accepts every spelling of a boolean', async () => {
    const sb = await start();
    const token = await login(sb);
    for (const [raw, expected] of [
      ['0', false],
      ['1', true],
      ['false', false],
      ['true', true],
    ] as const) {
      const answer = await call(sb, 'POST', '/projects/60', { token, form: { billable: raw } });
      expect(answer.status).toBe(200);
      expect(Boolean(answer.body.data.billable)).toBe(expected);
    }
  });
});

describe('time sandbox: customers', () => {
  it('renames a customer and the projects show the new name', async () => {
    const sb = await start();
    const token = await login(sb);
    const projects = (await call(sb, 'GET', '/projects', { token })).body.data as any[];
    const withCustomer = projects.filter((p) => p.customer_id === 3);
    expect(withCustomer.length).toBeGreaterThan(0);

    const answer = await call(sb, 'POST', '/customers/3', { token, form: { name: '  Müller, Söhne & "Enkel"  ' } });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ data: { id: 3, name: 'Müller, Söhne & "Enkel"' } });

    const after = (await call(sb, 'GET', '/projects', { token })).body.data as any[];
    for (const p of after.filter((q) => q.customer_id === 3)) expect(p.customer_name).toBe('Müller, Söhne & "Enkel"');
    expect(sb.control.customers().find((c) => c.id === 3)?.name).toBe('Müller, Söhne & "Enkel"');
  });

  it('refuses an unknown customer (404) and an empty name (400)', async () => {
    const sb = await start();
    const token = await login(sb);
    expectError(await call(sb, 'POST', '/customers/999', { token, form: { name: 'x' } }), 404);
    expectError(await call(sb, 'POST', '/customers/3', { token, form: { name: '   ' } }), 400, /name/);
    expectError(await call(sb, 'POST', '/customers/3', { token, form: {} }), 400, /name/);
    expectError(await call(sb, 'POST', '/customers/3', { token, json: { name: 'JSON' } }), 400, /form-encoded/);
    expect(sb.control.customers().find((c) => c.id === 3)?.name).toBe('Müller & Söhne');
  });
});

describe('time sandbox: reports/detailed', () => {
  const range = (start: string, end: string, extra = '') =>
    `/reports/detailed?date_execution_start=${start}&date_execution_end=${end}${extra}`;

  it('serves one row per seeded record in the range, by date and start, with the documented fields', async () => {
    const sb = await start();
    const token = await login(sb);
    const answer = await call(sb, 'GET', range('2026-11-02', '2026-11-06', '&opt_sort_by=date_execution&opt_sort_direction=asc'), {
      token,
    });
    expect(answer.status).toBe(200);
    const rows = answer.body.data as Array<Record<string, unknown>>;
    expect(rows.map((row) => row.id)).toEqual([904, 902, 903, 906, 905, 907, 908, 909, 910, 911]);
    expect(new Set(rows.map((row) => row.user_name))).toEqual(new Set(['Demo User', 'Ana Lima', 'Jürgen Weiß']));
    expect(new Set(rows.map((row) => row.project_id))).toEqual(new Set([57, 58, 60]));
    expect(rows[1]).toEqual({
      id: 902,
      user_id: 1,
      user_name: 'Demo User',
      user_email: 'demo@example.com',
      project_id: 57,
      project_name: 'Website relaunch',
      customer_id: 3,
      customer_name: 'Müller & Söhne',
      task_name: 'Planning',
      description: 'Kick-off, scope',
      date_execution: '2026-11-02',
      time_start: '09:00:00',
      time_end: '12:30:00',
      time_total: '03:30:00',
      billable: 1,
      rate_hour: 95.5,
      rate_total: 334.25,
    });
    // Past midnight; billed by user; not billable.
    expect(rows.find((row) => row.id === 905)).toMatchObject({ time_total: '02:45:00', rate_hour: null, rate_total: null, billable: 0 });
    expect(rows.find((row) => row.id === 904)).toMatchObject({ time_total: '02:00:00', rate_hour: 120, rate_total: 240 });
    expect(rows.find((row) => row.id === 906)).toMatchObject({ time_total: '00:20:15', rate_hour: 110, rate_total: 37.13 });
  });

  it('follows renames, includes both ends of the range, sorts descending on request and may be empty', async () => {
    const sb = await start();
    const token = await login(sb);
    await call(sb, 'POST', '/projects/57', { token, form: { name: 'Relaunch 2' } });
    const oneDay = await call(sb, 'GET', range('2026-11-06', '2026-11-06'), { token });
    expect(oneDay.body.data.map((row: { project_name: string }) => row.project_name)).toEqual(['Relaunch 2']);
    const desc = await call(sb, 'GET', range('2026-10-30', '2026-11-09', '&opt_sort_direction=desc'), { token });
    expect(desc.body.data.map((row: { id: number }) => row.id)).toEqual([912, 911, 910, 909, 908, 907, 905, 906, 903, 902, 904, 901]);
    const none = await call(sb, 'GET', range('2025-01-01', '2025-12-31'), { token });
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ data: [] });
  });

  it('answers 400 with the service error shape for missing, impossible or reversed dates and bad sorting, 401 without a token', async () => {
    const sb = await start();
    const token = await login(sb);
    expectError(
      await call(sb, 'GET', '/reports/detailed?date_execution_end=2026-11-06', { token }),
      400,
      'date_execution_start is required',
    );
    expectError(await call(sb, 'GET', range('2026-11-02', ''), { token }), 400, 'date_execution_end is required');
    expectError(await call(sb, 'GET', range('2026-02-30', '2026-03-01'), { token }), 400, 'date_execution_start must be a date YYYY-MM-DD');
    expectError(await call(sb, 'GET', range('2026-11-02', '6.11.2026'), { token }), 400, 'date_execution_end must be a date YYYY-MM-DD');
    expectError(await call(sb, 'GET', range('2026-11-06', '2026-11-02'), { token }), 400, /must not be after/);
    expectError(await call(sb, 'GET', range('2026-11-02', '2026-11-06', '&opt_sort_by=user'), { token }), 400, /opt_sort_by/);
    expectError(await call(sb, 'GET', range('2026-11-02', '2026-11-06', '&opt_sort_direction=up'), { token }), 400, /opt_sort_direction/);
    expectError(await call(sb, 'GET', range('2026-11-02', '2026-11-06')), 401);
    expectError(await call(sb, 'POST', range('2026-11-02', '2026-11-06'), { token, form: {} }), 405);
  });
});
