// trident status against the three sandboxes: what it prints, its exit code, and that it sends only GETs.
import { describe, expect, it } from 'vitest';
import { SANDBOX_TIME_USER } from '../../src/sandbox/time/server.js';
import { itWithTools } from '../helpers/system-tools.js';
import { writeSettings } from '../helpers/settings-file.js';
import { inTerminal } from '../helpers/terminal.js';
import { closedPort, envFor, errorOf, requestsFrom, tempConfigDir, trident, useServices } from '../reliability/harness.js';

const services = useServices(['keys', 'time', 'catalog']);
const everything = () => ({ ...envFor.keys(services), ...envFor.time(services), ...envFor.catalog(services) });
const notConfigured = {
  configured: false,
  works: null,
  url: null,
  url_source: null,
  credential: null,
  credential_source: null,
  found: null,
  error: null,
  exit_code: 0,
  clock_skew_seconds: null,
  warning: null,
};

/** The sandboxes run on this machine's clock: what trident reads of it is off by at most the rounding. */
const inStep = expect.toSatisfy((skew: unknown) => typeof skew === 'number' && Math.abs(skew) <= 1);

function allRequests() {
  const read = [requestsFrom(services.keys.server), requestsFrom(services.time.server), requestsFrom(services.catalog.server)];
  return () => read.flatMap((requests) => requests());
}

describe('trident status', () => {
  it('shows each service, where its URL and credential come from, and what a harmless GET found; exit 0', async () => {
    const sent = allRequests();
    const result = await trident(['status', '-o', 'json'], { env: everything() });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    const { bootstrap } = services.keys;
    expect(JSON.parse(result.stdout)).toEqual({
      keys: {
        configured: true,
        works: true,
        url: services.keys.url,
        url_source: 'env',
        credential: `key ${bootstrap.keyId}`,
        credential_source: `key id from TRIDENT_KEY_ID, private key from key file ${bootstrap.privateKeyFile}`,
        found: {
          api_key: bootstrap.keyId,
          name: 'sandbox-bootstrap',
          scopes: ['read', 'write'],
          age_seconds: expect.any(Number),
          age_source: 'service',
          keys: services.keys.control.listKeys().length,
        },
        error: null,
        exit_code: 0,
        clock_skew_seconds: inStep,
        warning: null,
      },
      time: {
        configured: true,
        works: true,
        url: services.time.url,
        url_source: 'env',
        credential: 'token',
        credential_source: 'TRIDENT_TIME_TOKEN',
        found: { user: null, projects: services.time.control.projects().length, user_agent: 'trident-cli' },
        error: null,
        exit_code: 0,
        clock_skew_seconds: inStep,
        warning: null,
      },
      catalog: {
        configured: true,
        works: true,
        url: services.catalog.url,
        url_source: 'env',
        credential: null,
        credential_source: null,
        found: { status: 'ok' },
        error: null,
        exit_code: 0,
        clock_skew_seconds: inStep,
        warning: null,
      },
    });
    expect(sent().sort()).toEqual(['GET /api/v1/projects', 'GET /healthz', 'GET /trade-api/v2/api_keys']);
  });

  it('a service without a URL is shown as not configured, which is no failure while another one is set up', async () => {
    const result = await trident(['status', '-o', 'json'], { env: envFor.catalog(services) });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    const status = JSON.parse(result.stdout);
    expect(status.keys).toEqual(notConfigured);
    expect(status.time).toEqual(notConfigured);
    expect(status.catalog).toMatchObject({ configured: true, works: true, exit_code: 0 });
  });

  it('nothing set up at all (a fresh config dir, no variables): exit 4, each service failed, one error with a hint, nothing sent', async () => {
    const sent = allRequests();
    const result = await trident(['status', '-o', 'json']);
    expect(result.exitCode).toBe(4);
    expect(JSON.parse(result.stdout)).toEqual({
      keys: { ...notConfigured, error: 'not set up: no keys.url', exit_code: 4 },
      time: { ...notConfigured, error: 'not set up: no time.url', exit_code: 4 },
      catalog: { ...notConfigured, error: 'not set up: no catalog.url', exit_code: 4 },
    });
    expect(result.stderr).toBe(
      'trident: no service is set up: no keys.url, time.url or catalog.url\n' +
        'hint: set TRIDENT_KEYS_URL, TRIDENT_TIME_URL or TRIDENT_CATALOG_URL, or run: trident config set keys.url <url>; trident sandbox runs local services to try trident on\n',
    );
    expect(sent()).toEqual([]);
    // the same in the formats people and scripts read
    for (const format of ['tsv', 'table']) expect((await trident(['status', '-o', format])).exitCode, format).toBe(4);
  });

  it('--service keys in a CI job whose secrets were never mapped: exit 4, whether the URL or the credentials are missing', async () => {
    const sent = allRequests();
    // the other services are set up and work: only the one asked for counts
    const noUrl = await trident(['status', '--service', 'keys', '-o', 'json'], {
      env: { ...envFor.time(services), ...envFor.catalog(services) },
    });
    expect(noUrl.exitCode).toBe(4);
    expect(JSON.parse(noUrl.stdout)).toEqual({ keys: { ...notConfigured, error: 'not set up: no keys.url', exit_code: 4 } });
    expect(noUrl.stderr.split('\n')[0]).toBe('trident: the keys service is not set up: no keys.url');
    // GitHub Actions gives an unset secret as an empty string
    const emptySecrets = await trident(['status', '--service', 'keys', '-o', 'json'], {
      env: { TRIDENT_KEYS_URL: services.keys.url, TRIDENT_KEY_ID: '', TRIDENT_PRIVATE_KEY: '' },
    });
    expect(emptySecrets.exitCode).toBe(4);
    expect(JSON.parse(emptySecrets.stdout).keys).toMatchObject({
      configured: true,
      works: false,
      exit_code: 4,
      error: 'no key id configured',
    });
    const emptyUrl = await trident(['status', '--service', 'keys'], { env: { TRIDENT_KEYS_URL: '' } });
    expect(emptyUrl.exitCode).toBe(4);
    expect(sent()).toEqual([]);
  });

  it('--service with a service set up but not working is no success either: its failure code', async () => {
    const down = `http://127.0.0.1:${await closedPort()}`;
    const catalog = await trident(['status', '--service', 'catalog', '-o', 'json', '--retries', '0'], {
      env: { TRIDENT_CATALOG_URL: down },
    });
    expect(catalog.exitCode).toBe(8);
    const keys = await trident(['status', '--service', 'keys', '-o', 'json', '--retries', '0'], {
      env: { ...envFor.keys(services), TRIDENT_KEY_ID: 'not-a-key' },
    });
    expect(keys.exitCode).toBe(4);
    expect(JSON.parse(keys.stdout).keys).toMatchObject({ configured: true, works: false, exit_code: 4 });
  });

  it('a profile that is set up when the one in use is not: the hint names it', async () => {
    const configDir = tempConfigDir();
    writeSettings(configDir, 'sandbox', { 'keys.url': services.keys.url });
    const result = await trident(['status', '--service', 'keys'], { configDir });
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toBe(
      'trident: the keys service is not set up: no keys.url in profile "default"\n' +
        'hint: profile "sandbox" has keys.url: add --profile sandbox, or make it the default with: trident config use sandbox\n',
    );
  });

  it('exits with the highest code of the failures: a refused key (4) and a catalog that is down (8) give 8', async () => {
    const sent = allRequests();
    const down = `http://127.0.0.1:${await closedPort()}`;
    const result = await trident(['status', '-o', 'json', '--retries', '0'], {
      env: { ...everything(), TRIDENT_KEY_ID: 'not-a-key', TRIDENT_CATALOG_URL: down },
    });
    expect(result.exitCode).toBe(8);
    const status = JSON.parse(result.stdout);
    expect(status.keys).toMatchObject({ configured: true, works: false, exit_code: 4, found: null });
    expect(status.keys.error).toMatch(/^keys service answered 401/);
    expect(status.time).toMatchObject({ works: true, exit_code: 0 });
    expect(status.catalog).toMatchObject({ configured: true, works: false, exit_code: 8, url: down });
    expect(sent().every((request) => request.startsWith('GET '))).toBe(true);
  });

  it('says when the time tracker has no token (exit 4) without sending anything to it', async () => {
    const sent = requestsFrom(services.time.server);
    const result = await trident(['status', '--service', 'time', '-o', 'json'], { env: envFor.timeServer(services) });
    expect(result.exitCode).toBe(4);
    expect(JSON.parse(result.stdout)).toEqual({
      time: {
        ...notConfigured,
        configured: true,
        works: false,
        url: services.time.url,
        url_source: 'env',
        error: 'not logged in (profile "default")',
        exit_code: 4,
      },
    });
    expect(sent()).toEqual([]);
  });

  it('--service checks one service only; tsv has one row per service under a header', async () => {
    const sent = allRequests();
    const result = await trident(['status', '--service', 'catalog', '-o', 'tsv'], { env: everything() });
    expect(result.exitCode, result.stderr).toBe(0);
    const [header, row, ...rest] = result.stdout.split('\n');
    expect(header).toBe(
      'service\tconfigured\tworks\turl\turl_source\tcredential\tcredential_source\tfound\terror\texit_code\tclock_skew_seconds\twarning',
    );
    expect(row).toMatch(new RegExp(`^catalog\ttrue\ttrue\t${services.catalog.url}\tenv\t\t\t\\{"status":"ok"\\}\t\t0\t-?[01]\t$`));
    expect(rest).toEqual(['']);
    expect(sent()).toEqual(['GET /healthz']);
  });

  it('--jq works on its JSON; an unknown --service is a usage error before any request', async () => {
    expect(await trident(['status', '--service', 'keys', '--jq', '.keys.found.name'], { env: everything() })).toMatchObject({
      exitCode: 0,
      stdout: 'sandbox-bootstrap\n',
    });
    const sent = allRequests();
    const result = await trident(['status', '--service', 'clock'], { env: everything() });
    expect(result.exitCode).toBe(2);
    expect(errorOf(result).message).toBe("option '--service <name>' argument 'clock' is invalid. Allowed choices are keys, time, catalog.");
    expect(sent()).toEqual([]);
  });

  itWithTools(['script'], 'on a terminal, shows one record a service, values wrapped rather than cut', async () => {
    const terminal = inTerminal(['status', '--no-color'], { env: { ...envFor.keys(services), ...envFor.catalog(services) } });
    expect(await terminal.exitCode()).toBe(0);
    const screen = terminal.screen().replace(/\r/g, '');
    for (const line of [
      '│ keys       │ ok',
      '│ time │ not configured (no time.url) │',
      '│ catalog │ ok',
      '│ found   │ status ok',
      '│ clock   │ ',
    ])
      expect(screen).toContain(line);
    expect(screen).not.toContain('…');
    expect(screen).toMatch(/scopes read,write; age (under a minute|\d+ minutes?) \(service\); keys \d+/);
  });
});

describe('trident status: the clock against each service', () => {
  const offBy = (seconds: number) => new Date(Date.now() + seconds * 1000).toUTCString();

  it('a keys service 90 s ahead that refuses the signature (401): exit 4, and a warning that says to set the clock', async () => {
    services.keys.server.faults.add({
      path: '/trade-api/v2/api_keys',
      fault: {
        kind: 'status',
        status: 401,
        headers: { date: offBy(90) },
        body: { error: { code: 'unauthorized', message: 'timestamp out of range' } },
      },
    });
    const result = await trident(['status', '--service', 'keys', '-o', 'json', '--retries', '0'], { env: everything() });
    expect(result.exitCode).toBe(4);
    const { keys } = JSON.parse(result.stdout);
    expect(keys).toMatchObject({ works: false, exit_code: 4 });
    expect(Math.abs(keys.clock_skew_seconds - 90)).toBeLessThanOrEqual(1);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^warning: the keys service's clock is (89|90|91) s ahead of this machine's: the keys service refuses a signature whose timestamp is off \(exit 4, 401\); set this machine's clock right \(sudo timedatectl set-ntp true, or the system's date and time settings\)$/,
    );
    expect(keys.warning).toBe(lines[0]!.replace(/^warning: /, ''));
  });

  it('a catalog 2 minutes behind that works: the warning only, exit 0, in every format', async () => {
    for (const format of ['json', 'tsv', 'table']) {
      services.catalog.server.faults.add({
        path: '/healthz',
        fault: { kind: 'status', status: 200, headers: { date: offBy(-120) }, body: { status: 'ok' } },
      });
      const result = await trident(['status', '--service', 'catalog', '-o', format], { env: everything() });
      expect(result.exitCode, format).toBe(0);
      expect(result.stderr, format).toMatch(/^warning: the catalog service's clock is (119|120|121) s behind this machine's: [^\n]*\n$/);
      if (format === 'json')
        expect(JSON.parse(result.stdout).catalog).toMatchObject({
          works: true,
          exit_code: 0,
          warning: expect.stringContaining('s behind'),
        });
      if (format === 'table')
        expect(result.stdout).toMatch(/clock +│ 1(19|20|21) s behind this machine: set the clock right \(see the warning\)/);
    }
  });

  it('4 s off is within what is allowed: the skew is shown, no warning', async () => {
    services.catalog.server.faults.add({
      path: '/healthz',
      fault: { kind: 'status', status: 200, headers: { date: offBy(4) }, body: { status: 'ok' } },
    });
    const result = await trident(['status', '--service', 'catalog', '-o', 'json'], { env: everything() });
    expect(result).toMatchObject({ exitCode: 0, stderr: '' });
    const { catalog } = JSON.parse(result.stdout);
    expect(Math.abs(catalog.clock_skew_seconds - 4)).toBeLessThanOrEqual(1);
    expect(catalog.warning).toBeNull();
  });

  it('an answer without a readable Date header leaves the skew unknown (null), with no warning', async () => {
    services.catalog.server.faults.add({
      path: '/healthz',
      fault: { kind: 'status', status: 200, headers: { date: 'yesterday-ish' }, body: { status: 'ok' } },
    });
    const result = await trident(['status', '--service', 'catalog', '-o', 'json'], { env: everything() });
    expect(result).toMatchObject({ exitCode: 0, stderr: '' });
    expect(JSON.parse(result.stdout).catalog).toMatchObject({ works: true, clock_skew_seconds: null, warning: null });
  });

  it('names the time user who logged in (the email time login kept)', async () => {
    const configDir = tempConfigDir();
    const login = await trident(['time', 'login', '--email', SANDBOX_TIME_USER.email, '--password-stdin'], {
      configDir,
      env: envFor.timeServer(services),
      input: `${SANDBOX_TIME_USER.password}\n`,
    });
    expect(login.exitCode, login.stderr).toBe(0);
    const result = await trident(['status', '--service', 'time', '-o', 'json'], { configDir, env: envFor.timeServer(services) });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).time.found).toMatchObject({ user: SANDBOX_TIME_USER.email });
  });
});
