// trident api as gh api, against the sandboxes: any -X method (the service answers what it does not accept,
// and a write is never sent twice), -F typed fields, -H headers (never the authentication or the User-Agent),
// -i, and --paginate over the catalog's lists, streamed. Each test checks what the service really received.
import { execa } from 'execa';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogSandbox } from '../../src/sandbox/catalog/server.js';
import { seededCatalog, startSandbox as startCatalog } from '../helpers/catalog-fixtures.js';
import { BIN, childEnv } from '../helpers/cli.js';
import { envFor, errorOf, requestsFrom, requestsReceivedBy, tempConfigDir, trident, useServices } from '../reliability/harness.js';

const services = useServices(['keys', 'time', 'catalog']);
/** The products of the catalog the paging tests walk. */
const PRODUCTS = 23;

describe('-X: any method', () => {
  it('sends PUT signed; the keys service answers 405, which is printed and exits 6', async () => {
    const sent = requestsReceivedBy(services.keys.server);
    const result = await trident(['api', 'keys', '/api_keys', '-X', 'put', '-F', 'name=x'], { env: envFor.keys(services) });
    expect(result.exitCode).toBe(6);
    expect(JSON.parse(result.stdout)).toMatchObject({ error: { code: 'method_not_allowed' } });
    expect(result.stderr).toBe('trident: keys service answered 405: method PUT not allowed; use GET, POST\n');
    const [request, ...more] = sent();
    expect(more).toEqual([]);
    // The sandbox checks the signature before the method: a 405 means the PUT was signed as PUT.
    expect(request).toMatchObject({ method: 'PUT', path: '/trade-api/v2/api_keys', body: '{"name":"x"}' });
    expect(request!.headers).toMatchObject({ 'kalshi-access-key': services.keys.bootstrap.keyId, 'content-type': 'application/json' });
  });

  it('a PUT or PATCH answered 503 is sent once: exit 8, its outcome unknown', async () => {
    for (const method of ['PUT', 'PATCH']) {
      services.catalog.server.faults.add({ method, path: '/products', fault: { kind: 'status', status: 503 }, times: 5 });
      const sent = requestsFrom(services.catalog.server);
      const result = await trident(['api', 'catalog', '/products', '-X', method, '-f', 'a=b'], { env: envFor.catalog(services) });
      expect(result.exitCode, result.stderr).toBe(8);
      expect(errorOf(result)).toEqual({
        message: 'catalog service answered 503: injected 503; the request was sent, so its outcome is unknown',
        hint: 'check whether it took effect before running the command again',
      });
      expect(sent()).toEqual([`${method} /products`]);
    }
  });

  it('a method that is not one word, or CONNECT, is refused: exit 2, nothing sent', async () => {
    const sent = requestsFrom(services.catalog.server);
    for (const [method, message] of [
      ['GET /x HTTP/1.1', 'invalid -X "GET /x HTTP/1.1": a method is one word, e.g. GET, PUT, PATCH'],
      ['CONNECT', '-X CONNECT is refused: it opens a tunnel, which trident api does not use'],
    ]) {
      const result = await trident(['api', 'catalog', '/healthz', '-X', method!], { env: envFor.catalog(services) });
      expect(result.exitCode).toBe(2);
      expect(errorOf(result).message).toBe(message);
    }
    expect(sent()).toEqual([]);
  });
});

describe('-F typed fields', () => {
  it('sends true, false, null and whole numbers as JSON, @file and @- as text, -f as strings', async () => {
    const dir = join(tempConfigDir(), '..');
    writeFileSync(join(dir, 'pem'), services.keys.bootstrap.publicKeyPem);
    const sent = requestsReceivedBy(services.keys.server);
    const args = ['-F', `public_key=@${join(dir, 'pem')}`, '-F', 'name=@-', '-F', 'scopes[]=read', '-F', 'n=12345678901234567890'];
    const typed = ['-F', 'on=true', '-F', 'off=false', '-F', 'none=null', '-f', 'raw=42'];
    const result = await trident(['api', 'keys', '/api_keys', ...args, ...typed, '--jq', '.api_key.name'], {
      env: envFor.keys(services),
      input: 'typed-fields',
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe('typed-fields\n');
    const [request, ...more] = sent();
    expect(more).toEqual([]);
    expect(request!.method).toBe('POST');
    expect(request!.body).toBe(
      `{"raw":"42","public_key":${JSON.stringify(services.keys.bootstrap.publicKeyPem)},"name":"typed-fields","scopes":["read"],"n":12345678901234567890,"on":true,"off":false,"none":null}`,
    );
    expect(services.keys.control.listKeys().filter((key) => key.name === 'typed-fields')).toHaveLength(1);
  });

  it('to the time tracker as a form, and with GET into the query', async () => {
    const sent = requestsReceivedBy(services.time.server);
    const made = await trident(['api', 'time', '/projects', '-f', 'name=Typed', '-F', 'billable=false', '--jq', '.data.billable'], {
      env: envFor.time(services),
    });
    expect(made.exitCode, made.stderr).toBe(0);
    expect(made.stdout).toBe('false\n');
    const catalogSent = requestsReceivedBy(services.catalog.server);
    const listed = await trident(['api', 'catalog', '/products', '-X', 'GET', '-F', 'limit=+01', '-F', 'offset=1', '--jq', '.meta'], {
      env: envFor.catalog(services),
    });
    expect(listed.exitCode, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toMatchObject({ limit: 1, offset: 1 });
    expect(sent().map((request) => [request.method, request.body])).toEqual([['POST', 'name=Typed&billable=false']]);
    expect(catalogSent().map((request) => `${request.method} ${request.path}${request.query}`)).toEqual(['GET /products?limit=1&offset=1']);
  });

  it('a file that cannot be read, or stdin asked for twice, is exit 2 with nothing sent', async () => {
    const sent = requestsFrom(services.keys.server);
    for (const [args, message] of [
      [['-F', 'name=@/nonexistent/x'], 'cannot read -F name=@/nonexistent/x: ENOENT'],
      [['-F', 'name=@/dev/zero'], '-F name=@/dev/zero is larger than 1 MiB: not read'],
      [['--input', '-', '-X', 'POST', '-F', 'a=@-'], '-F a=@- reads stdin, which another option reads already'],
    ] as const) {
      const result = await trident(['api', 'keys', '/api_keys', ...args], { env: envFor.keys(services), input: '{}' });
      expect(result.exitCode, result.stderr).toBe(2);
      expect(errorOf(result).message).toBe(message);
    }
    expect(sent()).toEqual([]);
  });
});

describe('-H headers', () => {
  it("are sent, replacing Accept and Content-Type; the authentication stays trident's", async () => {
    const sent = requestsReceivedBy(services.time.server);
    const result = await trident(
      [
        'api',
        'time',
        '/projects',
        '-H',
        'X-Trace: one',
        '-H',
        'x-trace: two',
        '-H',
        'Accept: application/json, */*',
        '--jq',
        '.data | length',
      ],
      { env: envFor.time(services) },
    );
    expect(result.exitCode, result.stderr).toBe(0);
    expect(Number(result.stdout)).toBeGreaterThan(0);
    const [request] = sent();
    expect(request!.headers).toMatchObject({ 'x-trace': 'one, two', accept: 'application/json, */*', 'user-agent': 'trident-cli' });
    expect(request!.headers.authorization).toMatch(/^Bearer \S+$/);
    const keysSent = requestsReceivedBy(services.keys.server);
    const typed = await trident(['api', 'keys', '/api_keys', '--input', '-', '-H', 'Content-Type: text/plain'], {
      env: envFor.keys(services),
      input: 'not json',
    });
    expect(typed.exitCode).toBe(6);
    expect(keysSent().map((r) => [r.method, r.headers['content-type'], r.body])).toEqual([['POST', 'text/plain', 'not json']]);
  });

  it('the signature, the token, the User-Agent, a line break or no "Name: value" are refused: exit 2, one line, nothing sent', async () => {
    const sent = [requestsFrom(services.keys.server), requestsFrom(services.time.server)];
    for (const [service, header, message, hint] of [
      [
        'keys',
        'KALSHI-ACCESS-SIGNATURE: forged',
        '-H "KALSHI-ACCESS-SIGNATURE" is refused: it is the service\'s authentication, which trident sets itself',
        'the credentials come from the profile: see trident status',
      ],
      [
        'keys',
        'kalshi-access-timestamp: 1',
        '-H "kalshi-access-timestamp" is refused: it is the service\'s authentication, which trident sets itself',
      ],
      [
        'time',
        'Authorization: Bearer other',
        '-H "Authorization" is refused: it is the service\'s authentication, which trident sets itself',
      ],
      ['time', 'X-Api-Token: other', '-H "X-Api-Token" is refused: it is the service\'s authentication, which trident sets itself'],
      [
        'time',
        'User-Agent: curl/8',
        '-H "User-Agent" is refused: it is trident\'s User-Agent (the time tracker binds its token to it), which trident sets itself',
        'set another with: trident config set time.userAgent NAME',
      ],
      ['time', 'Content-Length: 0', '-H "Content-Length" is refused: it is how the request is framed, which trident sets itself'],
      ['time', 'X-A: b\r\nAuthorization: Bearer x', 'invalid -H "X-A": its value has a line break or a control character', undefined],
      ['keys', 'NoColon', 'invalid -H "NoColon": expected "Name: value"', "e.g. -H 'Accept: application/json'"],
    ] as const) {
      const result = await trident(['api', service, service === 'keys' ? '/api_keys' : '/projects', '-H', header], {
        env: service === 'keys' ? envFor.keys(services) : envFor.time(services),
      });
      expect(result.exitCode, result.stderr).toBe(2);
      const error = errorOf(result);
      expect(error.message).toBe(message);
      if (hint !== undefined || header.includes('\r')) expect(error.hint).toBe(hint);
    }
    expect(sent.map((of) => of())).toEqual([[], []]);
  });
});

describe('-i', () => {
  it('prints the status line and the headers by name, an empty line, then the body', async () => {
    services.catalog.server.faults.add({
      path: '/healthz',
      fault: { kind: 'status', status: 200, headers: { 'x-request-id': 'req-77', 'cache-control': 'no-store' }, body: { status: 'ok' } },
    });
    const result = await trident(['api', 'catalog', '/healthz', '-i'], { env: envFor.catalog(services) });
    expect(result.exitCode, result.stderr).toBe(0);
    const [head, body] = result.stdout.split('\n\n');
    const [status, ...headers] = head!.split('\n');
    expect(status).toBe('HTTP/1.1 200 OK');
    expect(headers).toContain('X-Request-Id: req-77');
    expect(headers).toContain('Cache-Control: no-store');
    expect(headers.find((line) => line.startsWith('Content-Type: '))).toMatch(/^Content-Type: application\/json/);
    for (const line of headers) expect(line).toMatch(/^[A-Z][A-Za-z0-9]*(-[A-Z0-9][A-Za-z0-9]*)*: /);
    expect([...headers].sort()).toEqual(headers);
    expect(body).toBe('{"status":"ok"}\n');
  });

  it('a HEAD the catalog does not accept: its status line and headers, no body, exit 6', async () => {
    const sent = requestsFrom(services.catalog.server);
    const result = await trident(['api', 'catalog', '/healthz', '-X', 'head', '-i'], { env: envFor.catalog(services) });
    expect(result.exitCode).toBe(6);
    expect(result.stdout).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\n(.+\n)*Allow: GET\n(.+\n)*\n$/);
    expect(result.stderr).toBe('trident: catalog service answered 405\n');
    expect(sent()).toEqual(['HEAD /healthz']);
  });

  it('with --jq the headers then the filtered body; a 404 prints both and exits 5', async () => {
    services.catalog.server.faults.add({
      path: '/products/nope',
      fault: { kind: 'status', status: 404, headers: { 'x-request-id': 'req-404' }, body: { detail: 'product not found' } },
    });
    const result = await trident(['api', 'catalog', '/products/nope', '-i', '--jq', '.detail'], { env: envFor.catalog(services) });
    expect(result.exitCode).toBe(5);
    expect(result.stdout).toMatch(/^HTTP\/1\.1 404 Not Found\n(.+\n)*X-Request-Id: req-404\n(.+\n)*\nproduct not found\n$/);
    expect(result.stderr).toBe('trident: catalog service answered 404: product not found\n');
  });
});

describe('--paginate', () => {
  let seeded: CatalogSandbox;
  beforeAll(async () => {
    seeded = await startCatalog(seededCatalog(PRODUCTS));
  });
  afterAll(() => seeded?.close());
  const env = () => ({ TRIDENT_CATALOG_URL: seeded.url });
  /** Every product id of the catalog, from one page big enough. */
  async function allIds(): Promise<string[]> {
    const result = await trident(['api', 'catalog', '/products?limit=100', '--jq', '.items[].canonical_product_id'], {
      env: env(),
    });
    return result.stdout.trim().split('\n');
  }

  it('prints every page as it came, one after another, asking for each once', async () => {
    const ids = await allIds();
    expect(ids).toHaveLength(PRODUCTS);
    const sent = requestsReceivedBy(seeded.server);
    const result = await trident(['api', 'catalog', '/products?limit=2', '--paginate'], { env: env() });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    const pages = result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { items: Array<{ canonical_product_id: string }> });
    expect(pages).toHaveLength(Math.ceil(ids.length / 2));
    expect(pages.flatMap((page) => page.items.map((item) => item.canonical_product_id))).toEqual(ids);
    const asked = sent().map((request) => `${request.method} ${request.path}${request.query}`);
    expect(asked.sort()).toEqual(pages.map((_, i) => `GET /products?limit=2&offset=${i * 2}`).sort());
  });

  it('runs --jq on each page, keeps the rest of the query, starts at its offset; with -i each page has its headers', async () => {
    const ids = await allIds();
    const sent = requestsReceivedBy(seeded.server);
    const result = await trident(
      [
        'api',
        'catalog',
        '/products?offset=1&sort=observed_at_desc',
        '-F',
        'limit=1',
        '--paginate',
        '--jq',
        '.items[].canonical_product_id',
      ],
      {
        env: env(),
      },
    );
    expect(result.exitCode, result.stderr).toBe(0);
    expect(sent().every((request) => request.query.startsWith('?offset=') && request.query.includes('sort=observed_at_desc&limit=1'))).toBe(
      true,
    );
    const sorted = await trident(['api', 'catalog', '/products?limit=100&sort=observed_at_desc', '--jq', '.items[].canonical_product_id'], {
      env: env(),
    });
    expect(result.stdout).toBe(`${sorted.stdout.trim().split('\n').slice(1).join('\n')}\n`);
    const included = await trident(['api', 'catalog', '/products?limit=3', '--paginate', '-i', '--jq', '.meta.offset'], {
      env: env(),
    });
    expect(included.exitCode, included.stderr).toBe(0);
    const blocks = included.stdout.split(/\n\n(?=HTTP\/1\.1 )/);
    expect(blocks).toHaveLength(Math.ceil(ids.length / 3));
    blocks.forEach((block, i) => expect(block).toMatch(new RegExp(`^HTTP/1\\.1 200 OK\\n(.+\\n)+\\n${i * 3}\\n?$`)));
  });

  it('a page refused after others were printed: its body printed too, exit by its status, what was printed stays', async () => {
    const ids = await allIds();
    seeded.server.faults.add({
      path: '/categories',
      skip: 1,
      fault: { kind: 'status', status: 422, body: { detail: 'offset too far' } },
    });
    const refused = await trident(['api', 'catalog', '/categories?limit=1', '--paginate', '--jq', '.detail // .items[].id'], {
      env: env(),
    });
    expect(refused.exitCode).toBe(6);
    expect(refused.stdout).toMatch(/^\d+\noffset too far\n$/);
    expect(refused.stderr).toBe('trident: catalog service answered 422: offset too far\n');
    seeded.server.faults.add({ path: '/products', skip: 1, times: 10, fault: { kind: 'status', status: 503 } });
    const failed = await trident(
      ['api', 'catalog', '/products?limit=1', '--paginate', '--jq', '.items[].canonical_product_id', '--retries', '1'],
      {
        env: env(),
      },
    );
    expect(failed.exitCode).toBe(8);
    expect(failed.stdout).toBe(`${ids[0]}\n`);
    expect(failed.stderr).toMatch(/^trident: catalog service answered 503/);
    seeded.server.faults.clear();
  });

  it('a service that ignores offset, or answers with no list, stops the walk: exit 8, the pages printed stay', async () => {
    const first = await trident(['api', 'catalog', '/settlements?limit=2'], { env: env() });
    seeded.server.faults.add({
      path: '/settlements',
      times: 10,
      fault: { kind: 'body', status: 200, contentType: 'application/json', payload: first.stdout },
    });
    const sent = requestsFrom(seeded.server);
    const repeated = await trident(['api', 'catalog', '/settlements?limit=2', '--paginate'], { env: env() });
    expect(repeated.exitCode).toBe(8);
    expect(repeated.stdout).toBe(first.stdout);
    expect(repeated.stderr).toMatch(
      /^trident: stopped following the pages of the catalog service: the page at offset 2 is the same as the one at offset 0: the service seems to ignore offset\nhint: /,
    );
    expect(sent().length).toBeLessThanOrEqual(4);
    seeded.server.faults.clear();
    seeded.server.faults.add({
      path: '/categories',
      fault: { kind: 'body', status: 200, contentType: 'application/json', payload: '{"categories":[]}' },
    });
    const shapeless = await trident(['api', 'catalog', '/categories', '--paginate'], { env: env() });
    expect(shapeless.exitCode).toBe(8);
    expect(errorOf(shapeless)).toEqual({
      message: 'catalog service answered GET /categories with a page without items and meta.total',
      hint: 'check that the URL points at the catalog service',
    });
  });

  it('is refused but for a GET of a catalog list: exit 2, saying which paths page, nothing sent', async () => {
    const sent = [requestsFrom(services.keys.server), requestsFrom(seeded.server)];
    for (const [args, serviceEnv, what] of [
      [['keys', '/api_keys'], envFor.keys(services), 'keys GET /api_keys'],
      [['catalog', '/products/count'], env(), 'catalog GET /products/count'],
      [['catalog', '/products', '-X', 'POST'], env(), 'catalog POST /products'],
    ] as const) {
      const result = await trident(['api', ...args, '--paginate'], { env: serviceEnv });
      expect(result.exitCode, result.stderr).toBe(2);
      expect(errorOf(result)).toEqual({
        message: `--paginate follows the pages of the catalog's lists only (GET /products, /categories, /settlements), not ${what}`,
        hint: 'leave out --paginate, or page by hand with offset and limit in the query',
      });
    }
    const badLimit = await trident(['api', 'catalog', '/products?limit=500', '--paginate'], { env: env() });
    expect(badLimit.exitCode).toBe(2);
    expect(errorOf(badLimit).message).toBe('invalid limit "500": expected a whole number from 1 to 100');
    expect(sent.map((of) => of())).toEqual([[], []]);
  });
});

describe('--paginate | head -1', () => {
  let big: CatalogSandbox;
  beforeAll(async () => {
    big = await startCatalog(seededCatalog(1000));
  });
  afterAll(() => big?.close());

  it('streams: the first page is out before the list is read, and a reader that leaves ends it cleanly', async () => {
    const sent = requestsFrom(big.server);
    const started = performance.now();
    const shell = await execa(
      'bash',
      [
        '-c',
        `"${process.execPath}" "${BIN}" api catalog '/products?limit=1' --paginate --jq '.items[].canonical_product_id' | head -1; echo "trident exited \${PIPESTATUS[0]}" >&2`,
      ],
      { env: childEnv({ env: { TRIDENT_CATALOG_URL: big.url } }) as NodeJS.ProcessEnv, extendEnv: false, reject: false, timeout: 60_000 },
    );
    expect(shell.stdout).toMatch(/^[0-9a-f-]{36}$/);
    expect(shell.stderr).toBe('trident exited 0');
    expect(performance.now() - started).toBeLessThan(30_000);
    // Of the 1000 pages, only those asked for before the reader left.
    expect(sent().length).toBeLessThan(100);
  });
});
