import { describe, expect, it } from 'vitest';
import { didYouMean, suggesting } from '../../../src/core/did-you-mean.js';

describe('didYouMean', () => {
  const SETTINGS = ['keys.url', 'keys.keyId', 'keys.privateKeyFile', 'time.url', 'catalog.url', 'output'];

  it('names the close one: a letter missing, swapped, one too many', () => {
    expect(didYouMean('keys.ur', SETTINGS)).toBe('keys.url');
    expect(didYouMean('keys.keyDi', SETTINGS)).toBe('keys.keyId');
    expect(didYouMean('outputt', SETTINGS)).toBe('output');
  });

  it('names none for an exact match, for a word nothing is like, and among no names', () => {
    expect(didYouMean('output', SETTINGS)).toBeUndefined();
    expect(didYouMean('zzz', SETTINGS)).toBeUndefined();
    expect(didYouMean('ab', ['xy'])).toBeUndefined();
    expect(didYouMean('name', [])).toBeUndefined();
  });

  it('puts the guess before the rest of the hint', () => {
    expect(suggesting('nme', ['name', 'id'], 'the columns here: name, id')).toBe('did you mean name? the columns here: name, id');
    expect(suggesting('zzzz', ['name', 'id'], 'the columns here: name, id')).toBe('the columns here: name, id');
  });
});
