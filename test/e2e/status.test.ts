// trident status against the three sandboxes: what it prints, its exit code, and that it sends only GETs.
import { describe, expect, it } from 'vitest';
import { itWithTools } from '../helpers/system-tools.js';
import { inTerminal } from '../helpers/terminal.js';
import { closedPort, envFor, errorOf, requestsFrom, trident, useServices } from '../reliability/harness.js';

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
};

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
          keys: services.keys.control.listKeys().length,
        },
        error: null,
        exit_code: 0,
      },
      time: {
        configured: true,
        works: true,
        url: services.time.url,
        url_source: 'env',
        credential: 'token',
        credential_source: 'TRIDENT_TIME_TOKEN',
        found: { projects: services.time.control.projects().length, user_agent: 'trident-cli' },
        error: null,
        exit_code: 0,
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
      },
    });
    expect(sent().sort()).toEqual(['GET /api/v1/projects', 'GET /healthz', 'GET /trade-api/v2/api_keys']);
  });

  it('shows services without a URL as not configured, which is no failure, and sends nothing', async () => {
    const sent = allRequests();
    const result = await trident(['status', '-o', 'json']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ keys: notConfigured, time: notConfigured, catalog: notConfigured });
    expect(sent()).toEqual([]);
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
    expect(result.stdout).toBe(
      `service\tconfigured\tworks\turl\turl_source\tcredential\tcredential_source\tfound\terror\texit_code\ncatalog\ttrue\ttrue\t${services.catalog.url}\tenv\t\t\t{"status":"ok"}\t\t0\n`,
    );
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
    for (const line of ['│ keys       │ ok', '│ time │ not configured (no time.url) │', '│ catalog │ ok', '│ found   │ status ok'])
      expect(screen).toContain(line);
    expect(screen).not.toContain('…');
  });
});
