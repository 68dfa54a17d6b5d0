// Help text the groups add (notes, examples) wrapped to the terminal: at spaces only, hanging indents
// kept, and a long example continued with " \" so that it still works when pasted.
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { shellWords, wrapHelp } from '../../../src/core/term/help-wrap.js';

describe('wrapHelp', () => {
  it('leaves lines that fit alone, and wraps prose under the text after its "term  " column', () => {
    expect(wrapHelp('short\n  term  fits', 80)).toBe('short\n  term  fits');
    expect(wrapHelp("  URL    --url, TRIDENT_TIME_URL, or the profile's time.url (https only: the token never travels)", 50)).toBe(
      ["  URL    --url, TRIDENT_TIME_URL, or the profile's", '         time.url (https only: the token never', '         travels)'].join(
        '\n',
      ),
    );
  });

  it('never breaks a word: one longer than the line gets a line of its own', () => {
    const word = 'x'.repeat(60);
    expect(wrapHelp(`  a ${word} b`, 40)).toBe(`  a\n  ${word}\n  b`);
  });

  it('continues an example with " \\" at a space outside quotes, keeping a comment whole', () => {
    const example = "  $ trident keys create --name 'Café Zürich AG' --scopes read,write --out key.pem   # the pair is made here";
    const wrapped = wrapHelp(example, 40);
    for (const line of wrapped.split('\n')) expect(stringWidth(line) <= 40 || !line.includes(' ', 8)).toBe(true);
    expect(wrapped).toContain("'Café Zürich AG'");
    expect(
      wrapped
        .split('\n')
        .slice(0, -1)
        .every((line) => line.endsWith(' \\')),
    ).toBe(true);
    expect(wrapped.split('\n').at(-1)).toBe('      # the pair is made here');
  });

  it('a wrapped example is the same command to bash', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constantFrom('--name', "'a b c'", '"x y"', 'plain', '--scopes=read,write', 'Zürich', 'a\\ b')), {
          minLength: 1,
          maxLength: 12,
        }),
        fc.integer({ min: 20, max: 60 }),
        (words, width) => {
          const command = `printf '%s|' ${words.join(' ')}`;
          const wrapped = wrapHelp(`  $ ${command}`, width).replace(/^ {2}\$ /, '');
          const run = (script: string) => execFileSync('bash', ['--norc', '-c', script], { encoding: 'utf8' });
          expect(run(wrapped)).toBe(run(command));
        },
      ),
      { numRuns: 30 },
    );
  });

  it('splits at the spaces the shell splits at', () => {
    expect(shellWords(`a "b c" 'd e' f\\ g  # h i`)).toEqual(['a', '"b c"', "'d e'", 'f\\ g', '# h i']);
  });
});
