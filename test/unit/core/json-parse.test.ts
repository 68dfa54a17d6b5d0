import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, parseJson } from '../../../src/core/json/parse.js';

const nested = (levels: number, inner = '1') => `${'{"a":['.repeat(levels / 2)}${inner}${']}'.repeat(levels / 2)}`;

describe('parseJson: nesting', () => {
  it('takes an answer exactly as deep as allowed and refuses one level more', () => {
    expect(parseJson(nested(MAX_JSON_DEPTH))).toMatchObject({ ok: true });
    expect(parseJson(`[${nested(MAX_JSON_DEPTH)}]`)).toEqual({ ok: false, problem: 'too-deep' });
  });

  it('counts no bracket inside a string, also after escaped quotes and backslashes', () => {
    const brackets = '[{'.repeat(MAX_JSON_DEPTH);
    for (const inner of [`"${brackets}"`, `"\\"${brackets}"`, `"\\\\\\"${brackets}"`, `"a\\\\", "${brackets}"`]) {
      const parsed = parseJson(`[${inner}]`);
      expect(parsed, inner).toMatchObject({ ok: true });
    }
  });

  it('counts the brackets after a string that ends in an escaped backslash', () => {
    expect(parseJson(`["\\\\",${nested(MAX_JSON_DEPTH)}]`)).toEqual({ ok: false, problem: 'too-deep' });
  });

  it('tells text that is not JSON from JSON nested too deeply', () => {
    expect(parseJson('<html>')).toEqual({ ok: false, problem: 'not-json' });
    expect(parseJson('')).toEqual({ ok: false, problem: 'not-json' });
    expect(parseJson('{"a":')).toEqual({ ok: false, problem: 'not-json' });
  });

  it('parses an answer of ordinary depth to its value', () => {
    expect(parseJson('{"items":[{"id":1,"title":"a [b] {c}"}],"meta":{"total":1}}')).toEqual({ ok: true, value: { items: [{ id: 1, title: 'a [b] {c}' }], meta: { total: 1 } } });
  });
});
