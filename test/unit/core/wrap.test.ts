import fc from 'fast-check';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { WHOLE_WORD, pieces, widestPiece, wrapCell } from '../../../src/core/term/wrap.js';

const UUID = '0146d6eb-a68f-4103-802e-a8ca5faad817';

describe('wrapping text without splitting ids', () => {
  it('wraps at spaces', () => {
    expect(wrapCell('Крупа гречневая ядрица 800 г', 22)).toBe('Крупа гречневая ядрица\n800 г');
  });

  it('breaks a path at its slashes, and keeps the id in it whole', () => {
    const path = `/home/ci/.config/trident/keys/${UUID}.pem`;
    expect(wrapCell(path, 30)).toBe(`/home/ci/.config/trident/keys/\n${UUID}.pem`);
    expect(wrapCell(`new_key=${UUID} file=${path}`, 44)).toBe(`new_key=${UUID}\nfile=/home/ci/.config/trident/keys/\n${UUID}.pem`);
  });

  it('breaks text written without spaces between its characters', () => {
    expect(wrapCell('漢字のタイトル、とても長い商品名です', 10)).toBe('漢字のタイ\nトル、とて\nも長い商品\n名です');
  });

  it('lets an id stand wider than a line rather than split it', () => {
    expect(wrapCell(`key ${UUID} in use`, 20)).toBe(`key\n${UUID}\nin use`);
  });

  it('splits a word too long to be an id anywhere but through a UUID', () => {
    const word = `x${'a'.repeat(45)}${UUID}${'b'.repeat(5)}`;
    expect(pieces(word)).toContain(UUID);
    expect(wrapCell(word, 20).split('\n')).toContain(UUID);
    expect(widestPiece(['short words', word])).toBe(UUID.length);
  });

  it('loses no character; a line is wider than the width only when it is one piece; no word up to an id long is split (but one in a script without spaces)', () => {
    const word = fc.oneof(
      fc.constant(UUID),
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 60 }).map((text) => text.replace(/\s/g, '')),
      fc.constantFrom('/var/lib/ci/keys/', 'name=', 'a,b,c'),
    );
    fc.assert(
      fc.property(fc.array(word, { maxLength: 12 }), fc.integer({ min: 2, max: 60 }), (words, width) => {
        const text = words.join(' ');
        const lines = wrapCell(text, width).split('\n');
        for (const line of lines) if (stringWidth(line) > width) expect(pieces(line)).toHaveLength(1);
        expect(lines.join('').replace(/ /g, '')).toBe(text.replace(/ /g, ''));
        const narrowOnly = (w: string) => [...w].every((char) => stringWidth(char) <= 1);
        for (const whole of words.filter((w) => w !== '' && stringWidth(w) <= WHOLE_WORD && narrowOnly(w)))
          expect(lines.some((line) => line.includes(whole))).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});
