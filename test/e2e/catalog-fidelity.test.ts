// The catalog client as the public service is: the flag filters it has, times sent at full precision in any
// form the service takes, and health failures explained for what they are.
import { describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../helpers/cli.js';
import { PROD_1, smallCatalog } from '../helpers/catalog-fixtures.js';
import { useCatalogSandbox } from '../helpers/per-suite.js';

const sandbox = useCatalogSandbox(smallCatalog(), { resetAfterEach: true });

function catalog(args: string[], url = sandbox.url): Promise<CliResult> {
  return runCli(['catalog', ...args], { env: { TRIDENT_CATALOG_URL: url } });
}

/** The query the sandbox received on its one request to `path`. */
function received(path: string): URLSearchParams {
  const requests = sandbox.server.requests.filter((request) => request.path === path);
  expect(requests).toHaveLength(1);
  return new URLSearchParams(requests[0]!.query);
}

describe('catalog products: the flags of the service', () => {
  it('--is-new, --no-hit and --adult go out as is_new, hit and adult', async () => {
    const result = await catalog(['products', '--is-new', '--no-hit', '--adult', '-o', 'json']);
    expect(result.exitCode).toBe(0);
    const query = received('/products');
    expect([query.get('is_new'), query.get('hit'), query.get('adult')]).toEqual(['true', 'false', 'true']);
  });

  it('--no-is-new and --hit the other way round; none of them sends nothing', async () => {
    expect((await catalog(['products', '--no-is-new', '--hit', '-o', 'json'])).exitCode).toBe(0);
    const query = received('/products');
    expect([query.get('is_new'), query.get('hit'), query.has('adult')]).toEqual(['false', 'true', false]);
    sandbox.server.requests.length = 0;
    expect((await catalog(['products', '-o', 'json'])).exitCode).toBe(0);
    const plain = received('/products');
    expect(['is_new', 'hit', 'adult'].some((name) => plain.has(name))).toBe(false);
  });
});

describe('catalog dynamics: times as the service takes them', () => {
  const DYNAMICS = ['dynamics', PROD_1, '--store', 'fixprice', '--source-id', 'fp-1', '--field', 'price', '--interval', '1h', '-o', 'json'];

  it('sends microseconds as given (.123456Z, not .123Z), and the service anchors its buckets there', async () => {
    const result = await catalog([...DYNAMICS, '--from', '2026-02-01T10:00:00.123456+00:00', '--to', '2026-02-01T12:00:00.000001Z']);
    expect(result.exitCode).toBe(0);
    const query = received(`/products/${PROD_1}/dynamics`);
    expect([query.get('date_from'), query.get('date_to')]).toEqual(['2026-02-01T10:00:00.123456Z', '2026-02-01T12:00:00.000001Z']);
    expect(JSON.parse(result.stdout).dates).toEqual(['2026-02-01T10:00:00.123456Z', '2026-02-01T11:00:00.123456Z']);
  });

  it('takes the basic format and the other forms of fromisoformat', async () => {
    const result = await catalog([...DYNAMICS, '--from', '20260201T1000+0300', '--to', '2026-02-01T10,5+03']);
    expect(result.exitCode).toBe(0);
    const query = received(`/products/${PROD_1}/dynamics`);
    expect([query.get('date_from'), query.get('date_to')]).toEqual(['2026-02-01T07:00:00.000Z', '2026-02-01T07:00:00.500Z']);
  });

  it('refuses a naive time before any request', async () => {
    const result = await catalog([...DYNAMICS, '--from', '2026-02-01T05:00.123456']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^trident: --from "2026-02-01T05:00.123456" has no UTC offset/);
    expect(sandbox.server.requests).toHaveLength(0);
  });
});

describe('catalog health: failures said for what they are', () => {
  it('a URL with a path the service does not have: exit 5, a hint about --url, not about an id', async () => {
    const result = await catalog(['health', '--retries', '0'], `${sandbox.url}/nope`);
    expect(result.exitCode).toBe(5);
    expect(result.stderr).toBe(
      "trident: catalog service answered 404: Not Found\nhint: no catalog service answers at this URL: check --url (the service's base URL, without /healthz or another path)\n",
    );
  });

  it('a 503 detail over two lines: the first in the message, the rest in the hint, no literal \\n', async () => {
    const detail =
      'catalog_unavailable: (sqlite3.OperationalError) unable to open database file\n(Background on this error at: https://sqlalche.me/e/20/e3q8)';
    sandbox.server.faults.add({ path: '/healthz', fault: { kind: 'status', status: 503, body: { detail } } });
    const result = await catalog(['health', '--retries', '0']);
    expect(result.exitCode).toBe(8);
    expect(result.stderr).toBe(
      'trident: catalog service answered 503: catalog_unavailable: (sqlite3.OperationalError) unable to open database file\n' +
        'hint: (Background on this error at: https://sqlalche.me/e/20/e3q8); the service failed; try again later\n',
    );
  });
});
