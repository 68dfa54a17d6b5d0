import { describe, expect, it } from 'vitest';
import { exactInteger, jsonText } from '../../../src/core/json/big-integers.js';
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

  it('refuses an answer nested 100,000 levels deep as too deep, without overflowing a stack', () => {
    expect(parseJson(nested(200_000))).toEqual({ ok: false, problem: 'too-deep' });
    expect(parseJson(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)).toEqual({ ok: false, problem: 'too-deep' });
  });

  it('finds the one branch that goes too deep among wide shallow ones, in arrays and in objects', () => {
    const wide = Array.from({ length: 1000 }, (_, at) => ({ id: at, tags: ['a', 'b'], meta: { n: at } }));
    expect(parseJson(JSON.stringify({ items: wide }))).toMatchObject({ ok: true });
    expect(parseJson(JSON.stringify({ items: wide, deep: JSON.parse(nested(MAX_JSON_DEPTH)) }))).toEqual({
      ok: false,
      problem: 'too-deep',
    });
    expect(parseJson(JSON.stringify([...wide, JSON.parse(nested(MAX_JSON_DEPTH))]))).toEqual({ ok: false, problem: 'too-deep' });
  });

  it('tells text that is not JSON from JSON nested too deeply', () => {
    expect(parseJson(`[${nested(MAX_JSON_DEPTH * 4).slice(0, -1)}`)).toEqual({ ok: false, problem: 'not-json' });
    expect(parseJson('<html>')).toEqual({ ok: false, problem: 'not-json' });
    expect(parseJson('')).toEqual({ ok: false, problem: 'not-json' });
    expect(parseJson('{"a":')).toEqual({ ok: false, problem: 'not-json' });
  });

  it('parses an answer of ordinary depth to its value', () => {
    expect(parseJson('{"items":[{"id":1,"title":"a [b] {c}"}],"meta":{"total":1}}')).toEqual({
      ok: true,
      value: { items: [{ id: 1, title: 'a [b] {c}' }], meta: { total: 1 } },
    });
  });
});

describe('parseJson: integers past 2^53', () => {
  const exact = (text: string) => parseJson(text, { bigIntegers: true });

  it('keeps an integer past 2^53 exact as a bigint, in objects and arrays, signed or not', () => {
    expect(exact('{"id":9007199254740993,"ids":[-9007199254740993, 123456789012345678901234567890]}')).toEqual({
      ok: true,
      value: { id: 9007199254740993n, ids: [-9007199254740993n, 123456789012345678901234567890n] },
    });
  });

  it('leaves numbers a double holds exactly, fractions and exponents as numbers', () => {
    expect(exact('[9007199254740991,-9007199254740991,9007199254740993.5,9007199254740993e0,1E400,0,-0]')).toEqual({
      ok: true,
      // The literals past 2^53 are the doubles JSON.parse gives for the text above: what the test asserts.
      // eslint-disable-next-line no-loss-of-precision
      value: [9007199254740991, -9007199254740991, 9007199254740993.5, 9007199254740993, Infinity, 0, -0],
    });
  });

  it('never touches digits inside strings: values, keys, escaped quotes, a string that looks like the marker', () => {
    const text =
      '{"9007199254740993":"9007199254740993","note":"id \\"9007199254740993\\" 9007199254740995","trident-integer-x:9007199254740997":1,"id":9007199254740999}';
    expect(exact(text)).toEqual({
      ok: true,
      value: {
        '9007199254740993': '9007199254740993',
        note: 'id "9007199254740993" 9007199254740995',
        'trident-integer-x:9007199254740997': 1,
        id: 9007199254740999n,
      },
    });
  });

  it('makes no JSON of what is none: a big integer where JSON has no number stays refused', () => {
    for (const text of ['{9007199254740993:1}', '[09007199254740993]', '[9007199254740993', '9007199254740993 9007199254740995']) {
      expect(exact(text), text).toEqual({ ok: false, problem: 'not-json' });
    }
  });

  it('rounds as JSON.parse does when not asked to keep them', () => {
    expect(parseJson('{"id":9007199254740993}')).toEqual({ ok: true, value: { id: 9007199254740992 } });
  });
});

describe('jsonText', () => {
  it('writes a bigint as its digits, at any depth, indented or not, and everything else as JSON.stringify', () => {
    const value = { id: 9007199254740993n, list: [-9007199254740993n, 1, 'x'], nested: { id: 5n, s: '9007199254740993' } };
    expect(jsonText(value)).toBe('{"id":9007199254740993,"list":[-9007199254740993,1,"x"],"nested":{"id":5,"s":"9007199254740993"}}');
    expect(jsonText({ id: 9007199254740993n, list: [-9007199254740993n] }, 2)).toBe(
      '{\n  "id": 9007199254740993,\n  "list": [\n    -9007199254740993\n  ]\n}',
    );
    expect(jsonText({ a: 1 })).toBe('{"a":1}');
    expect(jsonText(undefined)).toBe('null');
  });

  it('reads back what it wrote: a round trip keeps every digit', () => {
    const text = '{"id":9007199254740993,"customer_id":18446744073709551615,"name":"n 9007199254740993"}';
    const parsed = parseJson(text, { bigIntegers: true });
    expect(parsed.ok && jsonText(parsed.value)).toBe(text);
  });
});

describe('exactInteger', () => {
  it('is a number while a double holds it exactly, a bigint past that', () => {
    expect(exactInteger('9007199254740991')).toBe(9007199254740991);
    expect(exactInteger('-9007199254740991')).toBe(-9007199254740991);
    expect(exactInteger('9007199254740992')).toBe(9007199254740992n);
    expect(exactInteger('0057')).toBe(57);
  });
});
