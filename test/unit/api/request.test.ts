// trident api: what its command line turns into before anything is sent.
import { describe, expect, it } from 'vitest';
import type { Field } from '../../../src/api/fields.js';
import { buildRequest, splitPath } from '../../../src/api/request.js';
import { ExitCode } from '../../../src/core/errors.js';
import { thrownBy } from '../keys/fixtures.js';

const none = { fields: [] as Field[] };

describe('splitPath', () => {
  it('splits the query off a path that starts with one "/"', () => {
    const { path, query } = splitPath('/products?limit=2&store=a%20b');
    expect(path).toBe('/products');
    expect([...query]).toEqual([
      ['limit', '2'],
      ['store', 'a b'],
    ]);
  });

  it.each([
    ['api_keys', 'it must start with one "/"'],
    ['//evil.test/x', 'it must start with one "/"'],
    ['/a/../b', '"." and ".." segments are refused'],
    ['/a/./b', '"." and ".." segments are refused'],
    ['/a/%2E%2e/b', '"." and ".." segments are refused'],
    ['/a\\..\\..\\x', '"\\", "%2f" and "%5c" are refused'],
    ['/a/..%2f..%2fx', '"\\", "%2f" and "%5c" are refused'],
    ['/a/%2E%2E%5C%2e%2e%5Cx', '"\\", "%2f" and "%5c" are refused'],
    ['/a\\b', '"\\", "%2f" and "%5c" are refused'],
    ['/a b', 'blanks or control characters'],
    ['/a#frag', 'a fragment is never sent'],
    ['/a/%zz', 'broken percent-encoding'],
  ])('refuses %s (exit 2)', (value, problem) => {
    const error = thrownBy(() => splitPath(value));
    expect(error.exitCode).toBe(ExitCode.usage);
    expect(error.message).toContain(problem);
  });
});

describe('buildRequest', () => {
  /** -f fields: strings. */
  const raw = (...fields: string[]): Field[] =>
    fields.map((field) => ({ key: field.split('=')[0]!, value: field.slice(field.indexOf('=') + 1) }));

  it('is a GET without fields or input, a POST with them (as gh api)', () => {
    expect(buildRequest('/x', none, 'json')).toMatchObject({ method: 'GET', path: '/x' });
    expect(buildRequest('/x', none, 'json').body).toBeUndefined();
    expect(buildRequest('/x', { fields: raw('a=1') }, 'json').method).toBe('POST');
    expect(buildRequest('/x', { fields: [], input: '{}' }, 'json')).toMatchObject({
      method: 'POST',
      body: '{}',
      contentType: 'application/json',
    });
  });

  it('builds a JSON body for keys, "key[]" making a list, and a form body for time', () => {
    expect(buildRequest('/api_keys', { fields: raw('name=ci key', 'scopes[]=read', 'scopes[]=write', 'note=a=b') }, 'json')).toMatchObject({
      body: '{"name":"ci key","scopes":["read","write"],"note":"a=b"}',
      contentType: 'application/json',
    });
    expect(buildRequest('/projects', { fields: raw('name=Café & co') }, 'form')).toMatchObject({
      body: 'name=Caf%C3%A9+%26+co',
      contentType: 'application/x-www-form-urlencoded',
    });
  });

  it('writes typed fields as JSON in a JSON body and as text in a form or a query', () => {
    const fields: Field[] = [
      { key: 'n', value: { integer: '12345678901234567890' } },
      { key: 'on', value: true },
      { key: 'gone', value: null },
      { key: 'ids[]', value: { integer: '7' } },
      { key: 'ids[]', value: 'x' },
    ];
    const json = buildRequest('/x', { fields }, 'json').body!;
    expect(json).toBe('{"n":12345678901234567890,"on":true,"gone":null,"ids":[7,"x"]}');
    expect(JSON.parse(json)).toMatchObject({ on: true, gone: null, ids: [7, 'x'] });
    expect(buildRequest('/x', { fields }, 'form').body).toBe('n=12345678901234567890&on=true&gone=&ids=7&ids=x');
    expect(buildRequest('/x', { method: 'GET', fields }, 'json').query.toString()).toBe('n=12345678901234567890&on=true&gone=&ids=7&ids=x');
  });

  it('puts the fields of a GET into the query', () => {
    const request = buildRequest('/products?limit=2', { method: 'get', fields: raw('store=fixprice') }, 'json');
    expect(request.method).toBe('GET');
    expect(request.query.toString()).toBe('limit=2&store=fixprice');
    expect(request.body).toBeUndefined();
  });

  it('sends any method, in capitals, with a body for those that carry one', () => {
    expect(buildRequest('/x', { method: 'put', fields: raw('a=1') }, 'json')).toMatchObject({ method: 'PUT', body: '{"a":"1"}' });
    expect(buildRequest('/x', { method: 'PATCH', fields: [], input: 'a=b' }, 'form')).toMatchObject({ method: 'PATCH', body: 'a=b' });
    const head = buildRequest('/x', { method: 'head', fields: raw('a=1') }, 'json');
    expect([head.method, head.body, head.query.toString()]).toEqual(['HEAD', undefined, 'a=1']);
    expect(buildRequest('/x', { method: 'PROPFIND', fields: [] }, 'json').method).toBe('PROPFIND');
  });

  it.each([
    [
      { method: 'GET /x HTTP/1.1\r\nHost: evil', fields: [] },
      'invalid -X "GET /x HTTP/1.1\\r\\nHost: evil": a method is one word, e.g. GET, PUT, PATCH',
    ],
    [{ method: '', fields: [] }, 'invalid -X "": a method is one word, e.g. GET, PUT, PATCH'],
    [{ method: 'connect', fields: [] }, '-X CONNECT is refused: it opens a tunnel, which trident api does not use'],
    [{ fields: raw('a=1'), input: '{}' }, '-f/-F and --input both give a body: use one of them'],
    [{ method: 'DELETE', fields: [], input: '{}' }, '--input gives a body, which a DELETE request does not send'],
  ])('refuses %j (exit 2)', (input, message) => {
    const error = thrownBy(() => buildRequest('/x', input, 'json'));
    expect(error.exitCode).toBe(ExitCode.usage);
    expect(error.message).toBe(message);
  });
});
