// trident api: -f and -F fields as gh api reads them, -H headers and what they may not replace, and where
// --paginate starts — all decided before anything is sent.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { MAX_FIELD_FILE_BYTES, readFields, typedValue } from '../../../src/api/fields.js';
import { OWN_HEADERS, parseHeaders } from '../../../src/api/headers.js';
import { pageStart } from '../../../src/api/paginate.js';
import { buildRequest } from '../../../src/api/request.js';
import { ExitCode } from '../../../src/core/errors.js';
import { KEY_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER } from '../../../src/keys/signing.js';
import { testContext } from '../../helpers/context.js';
import { rejectionOf, thrownBy } from '../keys/fixtures.js';

describe('-F typed values', () => {
  it.each([
    ['true', true],
    ['false', false],
    ['null', null],
    ['42', { integer: '42' }],
    ['-7', { integer: '-7' }],
    ['+007', { integer: '7' }],
    ['98765432109876543210', { integer: '98765432109876543210' }],
    ['1.5', '1.5'],
    ['True', 'True'],
    ['', ''],
    ['0x10', '0x10'],
    ['12 ', '12 '],
  ])('%j is %j', (text, value) => {
    expect(typedValue(text)).toEqual(value);
  });
});

describe('readFields', () => {
  const dir = mkdtempSync(join(tmpdir(), 'trident-api-fields-'));

  it('keeps -f values as strings, types -F values, and reads @file and @- as text', async () => {
    const file = join(dir, 'note.txt');
    writeFileSync(file, 'line one\nline "two"\n');
    const { ctx } = testContext({ stdin: 'from stdin' });
    const fields = await readFields(ctx, ['n=1', 'flag=true', 'path=@x'], ['count=3', 'on=false', 'note=@' + file, 'piped=@-'], false);
    expect(fields).toEqual([
      { key: 'n', value: '1' },
      { key: 'flag', value: 'true' },
      { key: 'path', value: '@x' },
      { key: 'count', value: { integer: '3' } },
      { key: 'on', value: false },
      { key: 'note', value: 'line one\nline "two"\n' },
      { key: 'piped', value: 'from stdin' },
    ]);
    expect(buildRequest('/x', { fields }, 'json').body).toBe(
      '{"n":"1","flag":"true","path":"@x","count":3,"on":false,"note":"line one\\nline \\"two\\"\\n","piped":"from stdin"}',
    );
  });

  it('refuses a field without "=", a missing or oversized file, and stdin read twice (exit 2)', async () => {
    const big = join(dir, 'big.txt');
    writeFileSync(big, 'x'.repeat(MAX_FIELD_FILE_BYTES + 1));
    const { ctx } = testContext({ stdin: 'x' });
    for (const [raw, typed, stdinTaken, message] of [
      [['novalue'], [], false, 'invalid -f "novalue": expected key=value'],
      [[], ['=x'], false, 'invalid -F "=x": expected key=value'],
      [[], ['a=@'], false, 'invalid -F "a=@": expected @file, or @- for stdin'],
      [[], [`a=@${join(dir, 'missing')}`], false, `cannot read -F a=@${join(dir, 'missing')}: ENOENT`],
      [[], [`a=@${big}`], false, `-F a=@${big} is larger than 1 MiB: not read`],
      [[], ['a=@-'], true, '-F a=@- reads stdin, which another option reads already'],
      [[], ['a=@-', 'b=@-'], false, '-F b=@- reads stdin, which another option reads already'],
    ] as const) {
      const error = await rejectionOf(readFields(ctx, [...raw], [...typed], stdinTaken));
      expect(error.exitCode).toBe(ExitCode.usage);
      expect(error.message).toBe(message);
    }
  });
});

describe('-H headers', () => {
  it('takes "Name: value", names in lower case, the same name twice joined', () => {
    expect(parseHeaders(['Accept: text/plain', 'X-Trace:  a b ', 'x-trace: c', 'X-Empty:'])).toEqual({
      accept: 'text/plain',
      'x-trace': 'a b, c',
      'x-empty': '',
    });
  });

  it('refuses what is not "Name: value", a line break or a control character (exit 2)', () => {
    for (const [header, message] of [
      ['Accept', 'invalid -H "Accept": expected "Name: value"'],
      [': x', 'invalid -H ": x": expected "Name: value"'],
      ['Bad Name: x', 'invalid -H "Bad Name: x": expected "Name: value"'],
      ['X-A: b\r\nX-Injected: c', 'invalid -H "X-A": its value has a line break or a control character'],
      ['X-A: b\nc', 'invalid -H "X-A": its value has a line break or a control character'],
      ['X-A: b\u0000', 'invalid -H "X-A": its value has a line break or a control character'],
    ]) {
      const error = thrownBy(() => parseHeaders([header!]));
      expect(error.exitCode).toBe(ExitCode.usage);
      expect(error.message).toBe(message);
      expect(error.message).not.toMatch(/[\r\n]/);
    }
    expect(parseHeaders(['X-Tab: a\tb'])).toEqual({ 'x-tab': 'a\tb' });
  });

  it('refuses the authentication, the User-Agent and the framing, whatever the case (exit 2)', () => {
    for (const name of [
      KEY_HEADER,
      SIGNATURE_HEADER,
      TIMESTAMP_HEADER,
      'Authorization',
      'X-Api-Token',
      'Proxy-Authorization',
      'user-agent',
      'HOST',
      'Content-Length',
      'Transfer-Encoding',
      'Accept-Encoding',
      'Connection',
    ]) {
      const error = thrownBy(() => parseHeaders([`${name}: x`]));
      expect(error.exitCode, name).toBe(ExitCode.usage);
      expect(error.message).toMatch(new RegExp(`^-H "${name}" is refused: it is .+, which trident sets itself$`));
      expect(error.hint).toBeTruthy();
    }
    // The keys service's signature headers, as the signing code names them.
    for (const name of [KEY_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER]) expect(OWN_HEADERS[name.toLowerCase()]).toBeDefined();
    expect(parseHeaders(['Content-Type: text/plain', 'Accept: */*'])).toEqual({ 'content-type': 'text/plain', accept: '*/*' });
  });
});

describe('--paginate', () => {
  const start = (service: string, path: string, method?: string) => pageStart(service, buildRequest(path, { method, fields: [] }, 'json'));

  it("starts at the query's offset, with its limit or pages of 100", () => {
    expect(start('catalog', '/products')).toEqual({ limit: 100, offset: 0 });
    expect(start('catalog', '/categories?limit=7&offset=3&store=x')).toEqual({ limit: 7, offset: 3 });
    expect(start('catalog', '/settlements?offset=0')).toEqual({ limit: 100, offset: 0 });
  });

  it('is refused but for a GET of a catalog list, and with a limit or offset the list refuses (exit 2)', () => {
    for (const [service, path, method, message] of [
      ['keys', '/api_keys', undefined, 'not keys GET /api_keys'],
      ['time', '/projects', undefined, 'not time GET /projects'],
      ['catalog', '/products/count', undefined, 'not catalog GET /products/count'],
      ['catalog', '/products', 'POST', 'not catalog POST /products'],
      ['catalog', '/products?limit=0', undefined, 'invalid limit "0": expected a whole number from 1 to 100'],
      ['catalog', '/products?limit=101', undefined, 'invalid limit "101": expected a whole number from 1 to 100'],
      ['catalog', '/products?offset=-1', undefined, 'invalid offset "-1": expected a whole number of at least 0'],
      ['catalog', '/products?offset=x', undefined, 'invalid offset "x": expected a whole number of at least 0'],
    ] as const) {
      const error = thrownBy(() => start(service, path, method));
      expect(error.exitCode).toBe(ExitCode.usage);
      expect(error.message).toContain(message);
    }
    expect(thrownBy(() => start('keys', '/api_keys')).message).toBe(
      "--paginate follows the pages of the catalog's lists only (GET /products, /categories, /settlements), not keys GET /api_keys",
    );
  });
});
