// trident api against the sandboxes: one raw request with each service's own authentication, the answer's
// body on stdout, the exit code by status, and what the service really received.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { itWithTools } from '../helpers/system-tools.js';
import { inTerminal } from '../helpers/terminal.js';
import { envFor, errorOf, requestsFrom, requestsReceivedBy, tempConfigDir, trident, useServices } from '../reliability/harness.js';

const services = useServices(['keys', 'time', 'catalog']);

describe('trident api keys', () => {
  it('sends a signed GET and prints the body as it came (not a terminal)', async () => {
    const sent = requestsFrom(services.keys.server);
    const result = await trident(['api', 'keys', '/api_keys'], { env: envFor.keys(services) });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({ api_keys: services.keys.control.listKeys() });
    // As it came, with its line ended.
    expect(result.stdout).toBe(`${JSON.stringify({ api_keys: services.keys.control.listKeys() })}\n`);
    expect(sent()).toEqual(['GET /trade-api/v2/api_keys']);
  });

  it('-o other than json is refused (exit 2, nothing sent): the answer is printed as it came', async () => {
    const sent = requestsFrom(services.keys.server);
    for (const args of [
      ['-o', 'table'],
      ['-o', 'csv'],
    ]) {
      const result = await trident(['api', 'keys', '/api_keys', ...args], { env: envFor.keys(services) });
      expect(result).toMatchObject({
        exitCode: 2,
        stdout: '',
        stderr: `trident: api prints the service's answer as it came: -o ${args[1]} does not apply\nhint: leave out -o (or use -o json), and pick fields with --jq\n`,
      });
    }
    const json = await trident(['api', 'keys', '/api_keys', '-o', 'json'], { env: envFor.keys(services) });
    expect(json.exitCode, json.stderr).toBe(0);
    expect(sent()).toEqual(['GET /trade-api/v2/api_keys']);
  });

  it('POSTs a body from --input, signed as the keys client signs: the key is created, once', async () => {
    const before = services.keys.control.listKeys().length;
    const dir = tempConfigDir();
    const input = join(dir, '..', 'body.json');
    writeFileSync(input, JSON.stringify({ name: 'made-by-api', public_key: services.keys.bootstrap.publicKeyPem, scopes: ['read'] }));
    const sent = requestsReceivedBy(services.keys.server);
    const result = await trident(['api', 'keys', '/api_keys', '--input', input, '--jq', '.api_key.api_key'], {
      env: envFor.keys(services),
      configDir: dir,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    const made = services.keys.control.listKeys().find((key) => key.name === 'made-by-api');
    expect(made).toBeDefined();
    expect(result.stdout).toBe(`${made!.api_key}\n`);
    expect(services.keys.control.listKeys()).toHaveLength(before + 1);
    const [request, ...more] = sent();
    expect(more).toEqual([]);
    expect(request).toMatchObject({ method: 'POST', path: '/trade-api/v2/api_keys' });
    expect(request!.headers).toMatchObject({ 'kalshi-access-key': services.keys.bootstrap.keyId, 'content-type': 'application/json' });
    expect(request!.headers['kalshi-access-signature']).toMatch(/^[A-Za-z0-9+/]+=*$/);
  });

  it('builds a JSON body from -f; a refusal prints the body and exits by status with one line on stderr', async () => {
    const sent = requestsReceivedBy(services.keys.server);
    const result = await trident(['api', 'keys', '/api_keys', '-f', 'name=x', '-f', 'scopes[]=read'], { env: envFor.keys(services) });
    expect(result.exitCode).toBe(6);
    expect(JSON.parse(result.stdout)).toMatchObject({ error: { code: 'invalid_parameters' } });
    expect(result.stderr).toBe('trident: keys service answered 400: public_key is required and must be a PEM string: INVALID_PARAMETERS\n');
    expect(sent().map((request) => [request.method, request.body])).toEqual([['POST', '{"name":"x","scopes":["read"]}']]);
  });

  it('a POST answered 503 is not repeated: exit 8', async () => {
    services.keys.server.faults.add({ method: 'POST', path: '/trade-api/v2/api_keys/generate', fault: { kind: 'status', status: 503 } });
    const sent = requestsFrom(services.keys.server);
    const result = await trident(['api', 'keys', '/api_keys/generate', '-f', 'name=y'], { env: envFor.keys(services) });
    expect(result.exitCode).toBe(8);
    expect(errorOf(result).message).toMatch(/^keys service answered 503/);
    expect(sent()).toEqual(['POST /trade-api/v2/api_keys/generate']);
  });

  it('a 404 exits 5; a refused path or method exits 2 before any request', async () => {
    const notFound = await trident(['api', 'keys', '/nope'], { env: envFor.keys(services) });
    expect(notFound.exitCode).toBe(5);
    expect(notFound.stderr).toBe('trident: keys service answered 404: no such endpoint: /trade-api/v2/nope\n');
    const sent = requestsFrom(services.keys.server);
    for (const [args, message] of [
      [['/a/../api_keys'], 'invalid path "/a/../api_keys": "." and ".." segments are refused'],
      [['api_keys'], 'invalid path "api_keys": it must start with one "/" (below the service\'s base URL)'],
      [['/api_keys', '-X', 'GET /x'], 'invalid -X "GET /x": a method is one word, e.g. GET, PUT, PATCH'],
      [
        ['/api_keys', '-H', 'Authorization: Bearer x'],
        '-H "Authorization" is refused: it is the service\'s authentication, which trident sets itself',
      ],
      [['/api_keys', '--jq', '.['], 'invalid --jq expression: syntax error, unexpected end of file at <top-level>, line 1, column 2'],
    ] as const) {
      const result = await trident(['api', 'keys', ...args], { env: envFor.keys(services) });
      expect(result.exitCode, result.stderr).toBe(2);
      expect(errorOf(result).message).toBe(message);
    }
    expect(sent()).toEqual([]);
  });

  it('--input /dev/zero ends at once with exit 2, nothing sent', async () => {
    const sent = requestsFrom(services.keys.server);
    const result = await trident(['api', 'keys', '/api_keys', '--input', '/dev/zero'], { env: envFor.keys(services) });
    expect(result.exitCode).toBe(2);
    expect(errorOf(result)).toEqual({
      message: '--input /dev/zero is larger than 8 MiB: not read',
      hint: 'a request body is not that big: check the file',
    });
    expect(result.ms).toBeLessThan(20_000);
    expect(sent()).toEqual([]);
  });

  it('refuses http:// to another host, as the keys group does (exit 2, nothing sent)', async () => {
    const result = await trident(['api', 'keys', '/api_keys'], {
      env: { ...envFor.keys(services), TRIDENT_KEYS_URL: 'http://keys.example.test/trade-api/v2' },
    });
    expect(result.exitCode).toBe(2);
    expect(errorOf(result).message).toBe('refusing to send credentials in clear text to http://keys.example.test (TRIDENT_KEYS_URL)');
  });
});

describe('trident api on a terminal', () => {
  itWithTools(['script'], 'pretty-prints a JSON answer', async () => {
    const terminal = inTerminal(['api', 'catalog', '/healthz'], { env: envFor.catalog(services) });
    expect(await terminal.exitCode()).toBe(0);
    expect(terminal.screen().replace(/\r/g, '')).toBe('{\n  "status": "ok"\n}\n');
  });

  itWithTools(['script'], 'shows control, bidi and zero-width characters of an answer escaped; JSON stays the same JSON', async () => {
    const json = { status: 'ok-\u202egnp.exe', note: 'csi \u009b2J zw\u200b', line: 'a\u2028b' };
    services.catalog.server.faults.add({
      path: '/healthz',
      fault: { kind: 'body', status: 200, contentType: 'application/json', payload: JSON.stringify(json) },
    });
    services.catalog.server.faults.add({
      path: '/plain',
      fault: { kind: 'body', status: 200, contentType: 'text/plain', payload: 'title \u001b]0;owned\u0007 \u202eevil\nnext line' },
    });
    const started = performance.now();
    const pretty = inTerminal(['api', 'catalog', '/healthz'], { env: envFor.catalog(services) });
    expect(await pretty.exitCode()).toBe(0);
    expect(performance.now() - started).toBeLessThan(10_000);
    const screen = pretty.screen().replace(/\r/g, '');
    expect(screen).toBe('{\n  "status": "ok-\\u202egnp.exe",\n  "note": "csi \\u009b2J zw\\u200b",\n  "line": "a\\u2028b"\n}\n');
    expect(JSON.parse(screen)).toEqual(json);
    const plain = inTerminal(['api', 'catalog', '/plain'], { env: envFor.catalog(services) });
    expect(await plain.exitCode()).toBe(0);
    expect(plain.screen().replace(/\r/g, '')).toBe('title \\x1b]0;owned\\x07 \\u202eevil\nnext line\n');
    // Piped, the body is as it came, its line ended.
    services.catalog.server.faults.add({
      path: '/plain',
      fault: { kind: 'body', status: 200, contentType: 'text/plain', payload: 'a\u202eb' },
    });
    expect((await trident(['api', 'catalog', '/plain'], { env: envFor.catalog(services) })).stdout).toBe('a\u202eb\n');
  });
});

describe('trident api time', () => {
  it('sends the token with the stable User-Agent, and -f as a form body', async () => {
    const sent = requestsReceivedBy(services.time.server);
    const result = await trident(['api', 'time', '/projects', '-f', 'name=Made by api', '--jq', '.data.name'], {
      env: envFor.time(services),
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe('Made by api\n');
    const [request, ...more] = sent();
    expect(more).toEqual([]);
    expect(request).toMatchObject({ method: 'POST', path: '/api/v1/projects', body: 'name=Made+by+api' });
    expect(request!.headers).toMatchObject({ 'user-agent': 'trident-cli', 'content-type': 'application/x-www-form-urlencoded' });
    expect(request!.headers.authorization).toMatch(/^Bearer \S+$/);
  });

  it('without a token exits 4 and sends nothing', async () => {
    const sent = requestsFrom(services.time.server);
    const result = await trident(['api', 'time', '/projects'], { env: envFor.timeServer(services) });
    expect(result.exitCode).toBe(4);
    expect(errorOf(result).message).toBe('not logged in to the time tracker (profile "default")');
    expect(sent()).toEqual([]);
  });
});

describe('trident api catalog', () => {
  it('GETs with the query, fields of a GET joining it; --jq filters the answer', async () => {
    const sent = requestsReceivedBy(services.catalog.server);
    const result = await trident(
      [
        'api',
        'catalog',
        '/products?limit=1',
        '-X',
        'GET',
        '-f',
        'offset=1',
        '--jq',
        '[(.items[].canonical_product_id | type), .meta.offset]',
      ],
      { env: envFor.catalog(services) },
    );
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe('["string",1]\n');
    expect(sent().map((request) => `${request.method} ${request.path}${request.query}`)).toEqual(['GET /products?limit=1&offset=1']);
  });

  it('a path that a backslash or an encoded separator would lead out of the base path is refused: exit 2, nothing sent', async () => {
    const catalogSent = requestsFrom(services.catalog.server);
    const keysSent = requestsFrom(services.keys.server);
    const paths = ['/a\\..\\..\\..\\x', '/a/..%2f..%2f..%2fx', '/a/%2e%2e%5c%2e%2e%5cx', '/a\\..\\..\\api_keys'];
    for (const [service, env] of [
      ['catalog', { TRIDENT_CATALOG_URL: `${services.catalog.url}/catalog/v1` }],
      ['keys', envFor.keys(services)],
    ] as const) {
      for (const path of paths) {
        const result = await trident(['api', service, path], { env });
        expect(result.exitCode, `${service} ${path}: ${result.stderr}`).toBe(2);
        expect(errorOf(result)).toEqual({
          message: `invalid path "${path}": "\\", "%2f" and "%5c" are refused: they can lead out of the service's base path`,
          hint: 'separate segments with "/"',
        });
        expect(result.ms).toBeLessThan(10_000);
      }
    }
    expect(catalogSent()).toEqual([]);
    expect(keysSent()).toEqual([]);
  });

  it('a 3xx is exit 8 naming where it points, and is not followed', async () => {
    services.catalog.server.faults.add({
      path: '/moved',
      fault: { kind: 'status', status: 301, headers: { location: 'http://elsewhere.test/x' } },
    });
    const sent = requestsFrom(services.catalog.server);
    const result = await trident(['api', 'catalog', '/moved'], { env: envFor.catalog(services) });
    expect(result.exitCode).toBe(8);
    expect(errorOf(result).message).toBe(
      'catalog service answered 301 (a redirect to http://elsewhere.test/x), which trident does not follow',
    );
    expect(sent()).toEqual(['GET /moved']);
  });
});
