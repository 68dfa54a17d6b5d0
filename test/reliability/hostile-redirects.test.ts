// No redirect is followed and no 3xx is a success: an SSO gateway redirecting to its login page, a host that moved (308).
// Every verb of every group ends in exit 8 naming the status and the Location, the request is not followed
// and not repeated, and nothing changes here (no key file removed, no token file removed, no profile
// switched) or on the service. Only a 303 to a POST says the service acted: that is an unknown outcome.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Fault, FaultRule } from '../../src/sandbox/http/faults.js';
import { SANDBOX_TIME_USER } from '../../src/sandbox/time/server.js';
import { profileWithKey, profileKey, rotate, ROTATE_JSON } from '../helpers/keys-rotation.js';
import { rawAnswer, startHostileServer } from '../helpers/hostile/server.js';
import { runFaultCase, type FaultCase } from './fault-case.js';
import { entries, envFor, errorOf, requestsFrom, trident, withServices, type Kind, type Run, type Services } from './harness.js';
import { untagged } from '../../src/keys/mint/tag.js';

const SSO = 'https://sso.example/login?next=%2F';
const MOVED = 'https://new-host.example/api';
const redirect = (status: number, location: string): Fault => ({ kind: 'status', status, headers: { location }, body: {} });
const on = (method: string, path: string | RegExp, fault: Fault): FaultRule => ({ method, path, fault, times: 5 });
const says = (service: Kind, status: number, location: string) =>
  new RegExp(
    `^${service} service answered ${status} \\(a redirect to ${location.replace(/[.?/]/g, '\\$&')}\\), which trident does not follow$`,
  );
const HINT = /^check the URL: the service may have moved, or a gateway in front of it wants a browser login$/;

const namedOnService = (s: Services, name: string) => s.keys.control.listKeys().filter((key) => untagged(key.name) === name);
const projectNamed = (s: Services, name: string) =>
  s.time.control.projects().filter((project) => (project as { name: string }).name === name);
const projectName = (s: Services, id: number) =>
  (s.time.control.projects().find((project) => (project as { id: number }).id === id) as { name: string } | undefined)?.name;
const customerName = (s: Services, id: number) => s.time.control.customers().find((customer) => customer.id === id)?.name;
const keysDirEmpty = (run: Run) => expect(entries(join(run.configDir, 'keys'))).toEqual([]);

interface RedirectCase extends FaultCase {
  kind: Kind;
}

const cases: RedirectCase[] = [
  {
    kind: 'catalog',
    name: 'catalog health (GET) 302',
    faults: [on('GET', '/healthz', redirect(302, SSO))],
    args: ['catalog', 'health'],
    exit: 8,
    message: says('catalog', 302, SSO),
    hint: HINT,
    sent: ['GET /healthz'],
  },
  {
    kind: 'catalog',
    name: 'catalog products --all (GET) 308',
    faults: [on('GET', '/products', redirect(308, MOVED))],
    args: ['catalog', 'products', '--all'],
    exit: 8,
    message: says('catalog', 308, MOVED),
    hint: HINT,
    sent: ['GET /products'],
  },
  {
    kind: 'keys',
    name: 'keys list (GET) 302',
    faults: [on('GET', /\/api_keys$/, redirect(302, SSO))],
    args: ['keys', 'list'],
    exit: 8,
    message: says('keys', 302, SSO),
    hint: HINT,
    sent: ['GET /trade-api/v2/api_keys'],
  },
  {
    kind: 'keys',
    name: 'keys generate (POST) 302: not followed, no key, nothing stored',
    faults: [on('POST', /\/generate$/, redirect(302, SSO))],
    args: ['keys', 'generate', '--name', 'r-gen'],
    exit: 8,
    message: says('keys', 302, SSO),
    hint: HINT,
    sent: ['POST /trade-api/v2/api_keys/generate'],
    check: (run, s) => {
      keysDirEmpty(run);
      expect(namedOnService(s, 'r-gen')).toEqual([]);
    },
  },
  {
    kind: 'keys',
    name: 'keys create (POST) 307: the staged private key is removed, no key',
    faults: [on('POST', /\/api_keys$/, redirect(307, MOVED))],
    args: ['keys', 'create', '--name', 'r-create'],
    exit: 8,
    message: says('keys', 307, MOVED),
    hint: HINT,
    sent: ['POST /trade-api/v2/api_keys'],
    check: (run, s) => {
      keysDirEmpty(run);
      expect(namedOnService(s, 'r-create')).toEqual([]);
    },
  },
  {
    kind: 'keys',
    name: 'keys delete (DELETE) 302: not "deleted", the key lives',
    faults: [on('DELETE', /\/api_keys\//, redirect(302, SSO))],
    args: ['keys', 'delete', '--yes', '-o', 'json'],
    prepare: (s) => [s.keys.control.addKey({ name: 'r-del', publicKeyPem: s.keys.bootstrap.publicKeyPem }).api_key],
    exit: 8,
    partialStdout: true,
    message: says('keys', 302, SSO),
    hint: HINT,
    sent: [/^DELETE \/trade-api\/v2\/api_keys\/[\w-]+$/],
    check: (run, s) => {
      expect(run.stdout).not.toMatch(/"deleted":\s*true/);
      expect(namedOnService(s, 'r-del')).toHaveLength(1);
    },
  },
  {
    kind: 'time',
    name: 'time projects (GET) 302',
    faults: [on('GET', '/api/v1/projects', redirect(302, SSO))],
    args: ['time', 'projects'],
    exit: 8,
    message: says('time', 302, SSO),
    hint: HINT,
    sent: ['GET /api/v1/projects'],
  },
  {
    kind: 'time',
    name: 'time projects get (GET) 301',
    faults: [on('GET', '/api/v1/projects/61', redirect(301, MOVED))],
    args: ['time', 'projects', 'get', '61'],
    exit: 8,
    message: says('time', 301, MOVED),
    hint: HINT,
    sent: ['GET /api/v1/projects/61'],
  },
  {
    kind: 'time',
    name: 'time projects create (POST) 302: no project',
    faults: [on('POST', '/api/v1/projects', redirect(302, SSO))],
    args: ['time', 'projects', 'create', '--name', 'r-project'],
    exit: 8,
    message: says('time', 302, SSO),
    hint: HINT,
    sent: ['POST /api/v1/projects'],
    check: (_run, s) => expect(projectNamed(s, 'r-project')).toEqual([]),
  },
  {
    kind: 'time',
    name: 'time projects update (POST) 308: the project keeps its name',
    faults: [on('POST', '/api/v1/projects/61', redirect(308, MOVED))],
    args: ['time', 'projects', 'update', '61', '--name', 'r-renamed'],
    prepare: (s) => (expect(projectName(s, 61)).toBeDefined(), []),
    exit: 8,
    message: says('time', 308, MOVED),
    hint: HINT,
    sent: ['POST /api/v1/projects/61'],
    check: (_run, s) => expect(projectName(s, 61)).not.toBe('r-renamed'),
  },
  {
    kind: 'time',
    name: 'time projects delete (DELETE) 302: the project lives',
    faults: [on('DELETE', '/api/v1/projects/61', redirect(302, SSO))],
    args: ['time', 'projects', 'delete', '61', '--yes'],
    exit: 8,
    message: says('time', 302, SSO),
    hint: HINT,
    sent: ['DELETE /api/v1/projects/61'],
    check: (_run, s) => expect(projectName(s, 61)).toBeDefined(),
  },
  {
    kind: 'time',
    name: 'time customer-update (POST) 302: the customer keeps its name',
    faults: [on('POST', '/api/v1/customers/4', redirect(302, SSO))],
    args: ['time', 'customer-update', '4', '--name', 'r-customer'],
    exit: 8,
    message: says('time', 302, SSO),
    hint: HINT,
    sent: ['POST /api/v1/customers/4'],
    check: (_run, s) => expect(customerName(s, 4)).toBe('Café Zürich'),
  },
  {
    kind: 'time',
    name: 'time login (POST) 302: no token stored',
    faults: [on('POST', '/api/v1/auth', redirect(302, SSO))],
    args: ['time', 'login', '--email', SANDBOX_TIME_USER.email, '--password-stdin'],
    input: `${SANDBOX_TIME_USER.password}\n`,
    exit: 8,
    message: says('time', 302, SSO),
    hint: HINT,
    sent: ['POST /api/v1/auth'],
    check: (run) => expect(entries(join(run.configDir, 'tokens'))).toEqual([]),
  },
  {
    kind: 'time',
    name: 'time projects create (POST) 303 after the project was made: an unknown outcome, one project',
    faults: [{ method: 'POST', path: '/api/v1/projects', fault: { ...redirect(303, `${MOVED}/projects/1`), afterProcessing: true } }],
    args: ['time', 'projects', 'create', '--name', 'r-303'],
    exit: 8,
    message:
      /^outcome unknown for the new project "r-303": time service answered 303 \(a redirect to .*\), which trident does not follow; the request was sent, so its outcome is unknown$/,
    hint: /^check with: trident time projects --status all/,
    sent: ['POST /api/v1/projects'],
    check: (_run, s) => expect(projectNamed(s, 'r-303')).toHaveLength(1),
  },
];

describe.concurrent('redirects on every verb of every group', () => {
  it.each(cases)('$name', async (c) => {
    await runFaultCase(c.kind, c);
  });

  it('time customer-update --from-csv: every row fails with the redirect, no customer renamed, each row sent once', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'trident-hostile-csv-')), 'renames.csv');
    writeFileSync(file, 'id,name\n3,Three\n5,Five\n');
    await withServices(['time'], async (s) => {
      const before = [customerName(s, 3), customerName(s, 5)];
      s.time.server.faults.add(on('POST', /^\/api\/v1\/customers\/\d+$/, redirect(302, SSO)));
      const sent = requestsFrom(s.time.server);
      const run = await trident(['time', 'customer-update', '--from-csv', file, '-o', 'json'], { env: envFor.time(s) });
      expect(run.exitCode, run.stderr).toBe(8);
      const rows = JSON.parse(run.stdout) as Array<{ id: number; ok: boolean; error: string }>;
      expect(rows.map((row) => [row.id, row.ok])).toEqual([
        [3, false],
        [5, false],
      ]);
      for (const row of rows) expect(row.error).toMatch(says('time', 302, SSO));
      expect(sent().sort()).toEqual(['POST /api/v1/customers/3', 'POST /api/v1/customers/5']);
      expect([customerName(s, 3), customerName(s, 5)]).toEqual(before);
    });
  });

  it('time logout: revoke answered 302 → exit 8, the token file stays and still works', async () => {
    await withServices(['time'], async (s) => {
      const login = await trident(['time', 'login', '--email', SANDBOX_TIME_USER.email, '--password-stdin'], {
        env: envFor.timeServer(s),
        input: `${SANDBOX_TIME_USER.password}\n`,
      });
      expect(login.exitCode, login.stderr).toBe(0);
      const tokenFile = join(login.configDir, 'tokens', 'default.json');
      const stored = readFileSync(tokenFile, 'utf8');
      s.time.server.faults.add(on('GET', '/api/v1/auth/revoke', redirect(302, SSO)));
      const sent = requestsFrom(s.time.server);
      const logout = await trident(['time', 'logout'], { env: envFor.timeServer(s), configDir: login.configDir });
      expect(logout.exitCode, logout.stderr).toBe(8);
      expect(errorOf(logout).message).toMatch(says('time', 302, SSO));
      expect(sent()).toEqual(['GET /api/v1/auth/revoke']);
      expect(readFileSync(tokenFile, 'utf8')).toBe(stored);
      const still = await trident(['time', 'projects'], { env: envFor.timeServer(s), configDir: login.configDir });
      expect(still.exitCode, still.stderr).toBe(0);
    });
  });

  it('keys rotate: the old key delete answered 302 → exit 8, the old key and its file stay, both keys valid', async () => {
    await withServices(['keys'], async (s) => {
      const setup = profileWithKey(s.keys);
      s.keys.server.faults.add(on('DELETE', new RegExp(`/api_keys/${setup.oldId}$`), redirect(302, SSO)));
      const result = await rotate(setup, ROTATE_JSON);
      expect(result.exitCode, result.stderr).toBe(8);
      expect(result.stderr).toContain(`answered 302 (a redirect to ${SSO}), which trident does not follow`);
      expect(result.stdout).not.toMatch(/"old_key_deleted":\s*true/);
      expect(existsSync(setup.oldFile)).toBe(true);
      expect(s.keys.control.listKeys().map((key) => key.api_key)).toContain(setup.oldId);
      // The profile moved to the new key, which works; the old one was never reported deleted.
      expect(profileKey(setup).keyId).not.toBe(setup.oldId);
      expect(s.keys.server.requests.filter((request) => request.method === 'DELETE')).toHaveLength(1);
    });
  });

  it('a Location with control characters is shown escaped, on one line', async () => {
    const server = await startHostileServer(
      ({ socket }) => void socket.end(rawAnswer('302 Found', { Location: 'https://evil.example/\x1b[2J\x07x', 'Content-Length': '0' })),
    );
    try {
      const run = await trident(['catalog', 'health', '--url', server.url, '--retries', '0']);
      expect(run.exitCode, run.stderr).toBe(8);
      errorOf(run);
      expect(run.stderr).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
      expect(server.requests).toEqual(['GET /healthz']);
    } finally {
      await server.close();
    }
  });
});
