// trident api -i: the status line and headers printed before the body.
import { describe, expect, it } from 'vitest';
import { headerBlock } from '../../../src/api/print.js';
import type { HttpResponse } from '../../../src/core/http/client.js';

describe('-i header block', () => {
  const response = (status: number, headers: Record<string, string | string[] | undefined>) =>
    ({ status, headers, body: Buffer.from(''), attempts: 1 }) as unknown as HttpResponse;

  it('is the status line, the headers by name with their usual capitals (a list joined), then an empty line', () => {
    const block = headerBlock(
      response(201, {
        'x-b': 'two',
        'content-type': 'application/json',
        'set-cookie': ['a=1', 'b=2'],
        etag: undefined,
        'www-authenticate': 'x',
      }),
      false,
    );
    expect(block).toBe('HTTP/1.1 201 Created\nContent-Type: application/json\nSet-Cookie: a=1, b=2\nWww-Authenticate: x\nX-B: two\n\n');
    expect(headerBlock(response(599, {}), false)).toBe('HTTP/1.1 599\n\n');
  });

  it('escapes control and bidi characters of a value on a terminal only', () => {
    const headers = { 'x-title': 'a\u001b]0;owned\u0007 \u202eb' };
    expect(headerBlock(response(200, headers), true)).toBe('HTTP/1.1 200 OK\nX-Title: a\\x1b]0;owned\\x07 \\u202eb\n\n');
    expect(headerBlock(response(200, headers), false)).toBe(`HTTP/1.1 200 OK\nX-Title: ${headers['x-title']}\n\n`);
  });
});
