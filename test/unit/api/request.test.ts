// trident api: what its command line turns into before anything is sent.
import { describe, expect, it } from 'vitest';
import { buildRequest, splitPath } from '../../../src/api/request.js';
import { ExitCode } from '../../../src/core/errors.js';
import { thrownBy } from '../keys/fixtures.js';

const none = { fields: [] as string[] };

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
  it('is a GET without fields or input, a POST with them (as gh api)', () => {
    expect(buildRequest('/x', none, 'json')).toMatchObject({ method: 'GET', path: '/x' });
    expect(buildRequest('/x', none, 'json').body).toBeUndefined();
    expect(buildRequest('/x', { fields: ['a=1'] }, 'json').method).toBe('POST');
    expect(buildRequest('/x', { fields: [], input: '{}' }, 'json')).toMatchObject({
      method: 'POST',
      body: '{}',
      contentType: 'application/json',
    });
  });

  it('builds a JSON body for keys, "key[]" making a list, and a form body for time', () => {
    expect(buildRequest('/api_keys', { fields: ['name=ci key', 'scopes[]=read', 'scopes[]=write', 'note=a=b'] }, 'json')).toMatchObject({
      body: '{"name":"ci key","scopes":["read","write"],"note":"a=b"}',
      contentType: 'application/json',
    });
    expect(buildRequest('/projects', { fields: ['name=Café & co'] }, 'form')).toMatchObject({
      body: 'name=Caf%C3%A9+%26+co',
      contentType: 'application/x-www-form-urlencoded',
    });
  });

  it('puts the fields of a GET into the query', () => {
    const request = buildRequest('/products?limit=2', { method: 'get', fields: ['store=fixprice'] }, 'json');
    expect(request.method).toBe('GET');
    expect(request.query.toString()).toBe('limit=2&store=fixprice');
    expect(request.body).toBeUndefined();
  });

  it.each([
    [{ method: 'PUT', fields: [] }, 'invalid -X "PUT": expected one of GET, POST, DELETE'],
    [{ fields: ['novalue'] }, 'invalid -f "novalue": expected key=value'],
    [{ fields: ['=x'] }, 'invalid -f "=x": expected key=value'],
    [{ fields: ['a=1'], input: '{}' }, '-f and --input both give a body: use one of them'],
    [{ method: 'DELETE', fields: [], input: '{}' }, '--input gives a body, which a DELETE request does not send'],
  ])('refuses %j (exit 2)', (input, message) => {
    const error = thrownBy(() => buildRequest('/x', input, 'json'));
    expect(error.exitCode).toBe(ExitCode.usage);
    expect(error.message).toBe(message);
  });
});
