// The time tracker misbehaving under the built CLI, over HTTPS. GETs are retried; a POST (a new project, a
// rename, a login) only after a 429; a DELETE whose first answer was lost is repeated and a 404 then means
// "already deleted". A certificate that does not fit fails before a single request, and says which way. Each
// case has a sandbox of its own, so the cases run concurrently.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaultRule } from '../../src/sandbox/http/faults.js';
import { SANDBOX_TIME_USER, startTimeSandbox, type TimeSandbox } from '../../src/sandbox/time/server.js';
import { makeSandboxTls } from '../../src/sandbox/http/tls.js';
import { runFaultCase, times, type FaultCase } from './fault-case.js';
import { entries, envFor, errorOf, requestsFrom, trident, withServices, type Run, type Services } from './harness.js';
import { ELSEWHERE, tlsForElsewhere } from './tls-elsewhere.js';

const PROJECTS = 'GET /api/v1/projects';
const CREATE = 'POST /api/v1/projects';
const AUTH = 'POST /api/v1/auth';
const on = (method: string, path: string | RegExp, fault: FaultRule['fault'], more: Partial<FaultRule> = {}): FaultRule => ({
  method,
  path,
  fault,
  ...more,
});
const projectsNamed = (services: Services, name: string) =>
  services.time.control.projects().filter((project) => (project as { name: string }).name === name);
const createProject = (name: string, ...flags: string[]) => ['time', 'projects', 'create', '--name', name, ...flags];
const login = ['time', 'login', '--email', SANDBOX_TIME_USER.email, '--password-stdin'];
const PASSWORD = `${SANDBOX_TIME_USER.password}\n`;
const tokensDir = (run: Run) => join(run.configDir, 'tokens');

const getCases: FaultCase[] = [
  {
    name: 'projects: 503 twice, then ok',
    faults: [on('GET', '/api/v1/projects', { kind: 'status', status: 503 }, { times: 2 })],
    args: ['time', 'projects'],
    exit: 0,
    sent: times(3, PROJECTS),
  },
  {
    name: 'projects: 429 with Retry-After: 1, then ok',
    faults: [
      on('GET', '/api/v1/projects', {
        kind: 'status',
        status: 429,
        headers: { 'retry-after': '1' },
        body: { status: 429, message: 'Rate limit exceeded' },
      }),
    ],
    args: ['time', 'projects', '--retries', '1'],
    exit: 0,
    sent: times(2, PROJECTS),
    minMs: 1000,
  },
  {
    name: "projects: 429 every time, --retries 0, in the service's own shape",
    faults: [on('GET', '/api/v1/projects', { kind: 'status', status: 429, body: { status: 429, message: 'Rate limit exceeded' } })],
    args: ['time', 'projects', '--retries', '0'],
    exit: 7,
    message: /^time service answered 429: Rate limit exceeded$/,
    sent: [PROJECTS],
  },
  {
    name: 'projects: connection reset every time, --retries 1',
    faults: [on('GET', '/api/v1/projects', { kind: 'reset' }, { times: 5 })],
    args: ['time', 'projects', '--retries', '1'],
    exit: 8,
    message: /failed: /,
    sent: times(2, PROJECTS),
  },
  {
    name: 'projects: the answer stops halfway, --retries 0',
    faults: [on('GET', '/api/v1/projects', { kind: 'truncate', afterProcessing: true })],
    args: ['time', 'projects', '--retries', '0'],
    exit: 8,
    message: /while reading the answer/,
    sent: [PROJECTS],
  },
  // --timeout 2: the deadline covers the TLS handshake too now, which takes a loaded machine most of a second.
  {
    name: 'projects: no answer, --timeout 2 --retries 0',
    faults: [on('GET', '/api/v1/projects', { kind: 'hang' })],
    args: ['time', 'projects', '--timeout', '2', '--retries', '0'],
    exit: 8,
    message: /in time \(waiting for the answer\)$/,
    sent: [PROJECTS],
    maxMs: 7000,
  },
  {
    name: 'projects: an HTML error page',
    faults: [
      on('GET', '/api/v1/projects', {
        kind: 'body',
        status: 500,
        payload: '<html><h1>Whoops, looks like something went wrong.</h1></html>',
        contentType: 'text/html',
      }),
    ],
    args: ['time', 'projects', '--retries', '0'],
    exit: 8,
    message: /^time service answered 500: an answer that is not JSON$/,
    sent: [PROJECTS],
  },
  {
    name: 'projects: a truncated JSON body',
    faults: [on('GET', '/api/v1/projects', { kind: 'body', payload: '{"data":[{"id":57,"na' })],
    args: ['time', 'projects'],
    exit: 8,
    message: /^time service answered 200 with a body that is not valid JSON$/,
    sent: [PROJECTS],
  },
  {
    name: 'projects: an answer over the size cap',
    faults: [on('GET', '/api/v1/projects', { kind: 'huge', bytes: 17 * 1024 * 1024 })],
    args: ['time', 'projects'],
    exit: 8,
    message: /larger than 16 MiB/,
    sent: [PROJECTS],
  },
];

const postCases: FaultCase[] = [
  {
    name: 'create project: 503 → exactly one POST, no project, the outcome is unknown (never "try again later")',
    faults: [
      on('POST', '/api/v1/projects', { kind: 'status', status: 503, body: { status: 503, message: 'Service Unavailable' } }, { times: 5 }),
    ],
    args: createProject('p-503'),
    exit: 8,
    message:
      /^outcome unknown for the new project "p-503": time service answered 503: Service Unavailable; the request was sent, so its outcome is unknown$/,
    hint: /^check with: trident time projects --status all \(look for "p-503"\) before creating it again$/,
    sent: [CREATE],
    check: (_run, s) => expect(projectsNamed(s, 'p-503')).toEqual([]),
  },
  {
    name: 'create project: 429 once → repeated (a 429 was not processed), one project',
    faults: [on('POST', '/api/v1/projects', { kind: 'status', status: 429 })],
    args: createProject('p-429'),
    exit: 0,
    notes: /^created project \d+\n$/,
    sent: times(2, CREATE),
    check: (_run, s) => expect(projectsNamed(s, 'p-429')).toHaveLength(1),
  },
  {
    name: 'create project: reset before the service acted → not repeated, outcome unknown, no project',
    faults: [on('POST', '/api/v1/projects', { kind: 'reset' })],
    args: createProject('p-reset'),
    exit: 8,
    message: /^outcome unknown for the new project "p-reset": .*the request was sent, so its outcome is unknown$/,
    hint: /^check with: trident time projects --status all \(look for "p-reset"\) before creating it again$/,
    sent: [CREATE],
    check: (_run, s) => expect(projectsNamed(s, 'p-reset')).toEqual([]),
  },
  {
    name: 'create project: the answer stops halfway after the project was saved → not repeated: one project',
    faults: [on('POST', '/api/v1/projects', { kind: 'truncate', afterProcessing: true })],
    args: createProject('p-truncated'),
    exit: 8,
    message: /outcome is unknown/,
    sent: [CREATE],
    check: (_run, s) => expect(projectsNamed(s, 'p-truncated')).toHaveLength(1),
  },
  {
    name: 'customer-update: 502 → one POST',
    faults: [on('POST', '/api/v1/customers/4', { kind: 'status', status: 502 }, { times: 5 })],
    args: ['time', 'customer-update', '4', '--name', 'Café Zürich GmbH'],
    exit: 8,
    sent: ['POST /api/v1/customers/4'],
    check: (_run, s) => expect(s.time.control.customers().find((c) => c.id === 4)!.name).toBe('Café Zürich'),
  },
];

const loginCases: FaultCase[] = [
  {
    name: 'login: 503 → one POST, no token stored',
    faults: [on('POST', '/api/v1/auth', { kind: 'status', status: 503 }, { times: 5 })],
    args: login,
    input: PASSWORD,
    exit: 8,
    sent: [AUTH],
    check: (run) => expect(entries(tokensDir(run))).toEqual([]),
  },
  {
    name: 'login: the answer stops halfway → not repeated, outcome unknown, no token file and no temp file',
    faults: [on('POST', '/api/v1/auth', { kind: 'truncate', afterProcessing: true })],
    args: login,
    input: PASSWORD,
    exit: 8,
    message: /outcome is unknown$/,
    sent: [AUTH],
    check: (run) => expect(entries(tokensDir(run))).toEqual([]),
  },
  {
    name: 'login: 429 with Retry-After: 1 → repeated once, token stored 0600',
    faults: [on('POST', '/api/v1/auth', { kind: 'status', status: 429, headers: { 'retry-after': '1' } })],
    args: [...login, '--retries', '1'],
    input: PASSWORD,
    exit: 0,
    notes: /^logged in as /,
    // then the one GET with which login checks the new token before storing it
    sent: [...times(2, AUTH), 'GET /api/v1/projects'],
    minMs: 1000,
    check: (run) => expect(entries(tokensDir(run))).toEqual(['default.json']),
  },
];

describe.concurrent('time under faults', () => {
  it.each([...getCases, ...postCases])('$name', async (c) => {
    await runFaultCase('time', c);
  });

  it.each(loginCases)('$name', async (c) => {
    await runFaultCase('time', c, envFor.timeServer);
  });

  it.each<FaultCase>([
    {
      name: 'delete project: the answer lost after the project was deleted → repeated; the 404 means "already deleted", exit 0',
      faults: [on('DELETE', '/api/v1/projects/61', { kind: 'reset', afterProcessing: true })],
      args: ['time', 'projects', 'delete', '61', '--yes', '-o', 'json'],
      exit: 0,
      notes: /already deleted/,
      sent: times(2, 'DELETE /api/v1/projects/61'),
      check: (run) => expect(JSON.parse(run.stdout)).toEqual({ id: 61, deleted: true, already_deleted: true }),
    },
    {
      name: 'delete project: after a 429 a 404 is "not found" (exit 5): a 429 deleted nothing',
      faults: [on('DELETE', '/api/v1/projects/999', { kind: 'status', status: 429 })],
      args: ['time', 'projects', 'delete', '999', '--yes'],
      exit: 5,
      message: /^time service answered 404: Project not found$/,
      hint: /^list the projects with: trident time projects --status all$/,
      sent: times(2, 'DELETE /api/v1/projects/999'),
    },
  ])('$name', async (c) => {
    await runFaultCase('time', c);
  });

  it('customer-update --from-csv: a lost answer and a 503 fail their rows only; every row is sent exactly once', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'trident-rel-csv-')), 'renames.csv');
    writeFileSync(file, 'id,name\n3,Three\n5,Five\n7,Seven\n');
    await withServices(['time'], async (s) => {
      s.time.server.faults.add(on('POST', '/api/v1/customers/5', { kind: 'reset', afterProcessing: true }));
      s.time.server.faults.add(on('POST', '/api/v1/customers/7', { kind: 'status', status: 503 }, { times: 5 }));
      const sent = requestsFrom(s.time.server);
      const run = await trident(['time', 'customer-update', '--from-csv', file, '-o', 'json'], { env: envFor.time(s) });
      expect(run.exitCode).toBe(8);
      expect(sent().sort()).toEqual(['POST /api/v1/customers/3', 'POST /api/v1/customers/5', 'POST /api/v1/customers/7']);
      const rows = JSON.parse(run.stdout) as Array<{ id: number; ok: boolean; error: string | null }>;
      expect(rows.map((row) => [row.id, row.ok])).toEqual([
        [3, true],
        [5, false],
        [7, false],
      ]);
      expect(rows[1]!.error).toMatch(/outcome is unknown/);
      expect(rows[2]!.error).toMatch(/^time service answered 503/);
      expect(run.stderr).toBe(
        `trident: updated 1 of 3 customers; 2 failed (lines 3, 4 of ${file})\nhint: the result of each row says why\n`,
      );
      // what the service did: 3 and 5 renamed (5 although its answer was lost), 7 not
      expect(
        s.time.control
          .customers()
          .filter((c) => [3, 5, 7].includes(c.id as number))
          .map((c) => c.name),
      ).toEqual(['Three', 'Five', 'Smith, Jones and Partners']);
    });
  });

  it('customer-update --from-csv: a 429 with Retry-After holds the rows not yet sent until then, on every worker', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'trident-rel-csv-')), 'renames.csv');
    writeFileSync(file, 'id,name\n3,Three\n4,Four\n5,Five\n7,Seven\n');
    await withServices(['time'], async (s) => {
      // Row 1 is refused with "come back in 1 s"; row 2, on the other worker, is through after 300 ms: its
      // worker must then wait out the second too, not send row 3 at once.
      s.time.server.faults.add(
        on('POST', '/api/v1/customers/3', {
          kind: 'status',
          status: 429,
          headers: { 'retry-after': '1' },
          body: { status: 429, message: 'Rate limit exceeded' },
        }),
      );
      s.time.server.faults.add(on('POST', '/api/v1/customers/4', { kind: 'delay', ms: 300 }));
      const start = s.time.server.requests.length;
      const run = await trident(['time', 'customer-update', '--from-csv', file, '--concurrency', '2', '-o', 'json'], {
        env: envFor.time(s),
      });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.stderr).toBe('the time service is rate limiting (429): spacing the rows that follow\nupdated 4 of 4 customers\n');
      expect((JSON.parse(run.stdout) as Array<{ ok: boolean }>).every((row) => row.ok)).toBe(true);
      const posts = s.time.server.requests.slice(start).filter((request) => request.method === 'POST');
      const refusedAt = posts.find((request) => request.path === '/api/v1/customers/3')!.at;
      const later = posts.filter((request) => request.path === '/api/v1/customers/5' || request.path === '/api/v1/customers/7');
      expect(later).toHaveLength(2);
      for (const request of later) expect(request.at - refusedAt, request.path).toBeGreaterThanOrEqual(950);
      expect(posts.map((request) => request.path).sort()).toEqual([
        '/api/v1/customers/3',
        '/api/v1/customers/3',
        '/api/v1/customers/4',
        '/api/v1/customers/5',
        '/api/v1/customers/7',
      ]);
      expect(run.ms).toBeLessThan(15_000);
      expect(s.time.control.customers().map((c) => c.name)).toEqual(['Three', 'Four', 'Five', 'Seven']);
    });
  });

  it('customer-update --from-csv: a Retry-After of an hour fails its row at once and holds nothing (bounded)', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'trident-rel-csv-')), 'renames.csv');
    writeFileSync(file, 'id,name\n3,Three\n4,Four\n5,Five\n7,Seven\n');
    await withServices(['time'], async (s) => {
      s.time.server.faults.add(
        on('POST', '/api/v1/customers/3', {
          kind: 'status',
          status: 429,
          headers: { 'retry-after': '3600' },
          body: { status: 429, message: 'Rate limit exceeded' },
        }),
      );
      const sent = requestsFrom(s.time.server);
      const run = await trident(['time', 'customer-update', '--from-csv', file, '--concurrency', '2', '-o', 'json'], {
        env: envFor.time(s),
      });
      expect(run.exitCode, run.stderr).toBe(7);
      expect(run.ms).toBeLessThan(20_000);
      const rows = JSON.parse(run.stdout) as Array<{ id: number; ok: boolean; error: string | null }>;
      expect(rows.map((row) => [row.id, row.ok])).toEqual([
        [3, false],
        [4, true],
        [5, true],
        [7, true],
      ]);
      expect(rows[0]!.error).toBe('time service answered 429: Rate limit exceeded');
      expect(sent().sort()).toEqual([
        'POST /api/v1/customers/3',
        'POST /api/v1/customers/4',
        'POST /api/v1/customers/5',
        'POST /api/v1/customers/7',
      ]);
      expect(s.time.control.customers().map((c) => c.name)).toEqual(['Müller & Söhne', 'Four', 'Five', 'Seven']);
    });
  });

  it('logout: a revoke that fails keeps the stored token, which still works', async () => {
    await withServices(['time'], async (s) => {
      const first = await trident(login, { env: envFor.timeServer(s), input: PASSWORD });
      expect(first.exitCode, first.stderr).toBe(0);
      const stored = readFileSync(join(tokensDir(first), 'default.json'), 'utf8');
      s.time.server.faults.add(on('GET', '/api/v1/auth/revoke', { kind: 'status', status: 503 }));
      const sent = requestsFrom(s.time.server);
      const failed = await trident(['time', 'logout', '--retries', '0'], { env: envFor.timeServer(s), configDir: first.configDir });
      expect(failed.exitCode).toBe(8);
      expect(errorOf(failed).message).toMatch(/^time service answered 503/);
      expect(sent()).toEqual(['GET /api/v1/auth/revoke']);
      expect(readFileSync(join(tokensDir(first), 'default.json'), 'utf8')).toBe(stored);
      const still = await trident(['time', 'projects'], { env: envFor.timeServer(s), configDir: first.configDir });
      expect(still.exitCode, still.stderr).toBe(0);
    });
  });

  describe('certificates', () => {
    let elsewhere: TimeSandbox;
    let otherCa: string;
    beforeAll(async () => {
      elsewhere = await startTimeSandbox({ tls: tlsForElsewhere(), dir: mkdtempSync(join(tmpdir(), 'trident-rel-elsewhere-')) });
      otherCa = join(mkdtempSync(join(tmpdir(), 'trident-rel-ca-')), 'other-ca.pem');
      writeFileSync(otherCa, makeSandboxTls().caCertPem);
    });
    afterAll(() => elsewhere?.close());

    it.each([
      ['projects (GET)', ['time', 'projects']],
      ['login (POST): refused before sending, so the outcome is known', login],
    ])("another sandbox's CA: %s → exit 8, a --ca-file hint, no request", async (_name, args) => {
      await withServices(['time'], async (s) => {
        const run = await trident(args, { env: { ...envFor.time(s), TRIDENT_CA_FILE: otherCa }, input: PASSWORD });
        expect(run.exitCode).toBe(8);
        const { message, hint } = errorOf(run);
        expect(message).toMatch(/^TLS error talking to 127\.0\.0\.1:\d+: unable to verify the first certificate$/);
        expect(hint).toBe('if the service uses a private CA, pass it with --ca-file');
        expect(s.time.server.requests).toEqual([]);
      });
    });

    it(`a certificate for ${ELSEWHERE} → exit 8, the hint says the name is wrong, no request`, async () => {
      const run = await trident(['time', 'projects'], {
        env: {
          TRIDENT_TIME_URL: elsewhere.url,
          TRIDENT_CA_FILE: elsewhere.caFile!,
          TRIDENT_TIME_TOKEN: elsewhere.control.issueToken('trident-cli'),
        },
      });
      expect(run.exitCode).toBe(8);
      const { message, hint } = errorOf(run);
      expect(message).toMatch(/^TLS error talking to 127\.0\.0\.1:\d+: .*not in the cert's list/);
      expect(hint).toBe('the certificate is not valid for the name 127.0.0.1: check the host in the URL');
      expect(elsewhere.server.requests).toEqual([]);
    });
  });
});
