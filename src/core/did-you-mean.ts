// "Did you mean …?" for a name that is not one of those a command knows (a setting, a column), picked as
// commander picks a command or an option: close in edit distance, and more alike than not.
import { closest, distance } from 'fastest-levenshtein';

const MAX_DISTANCE = 3;
const MIN_SIMILARITY = 0.4;

/** The known name `word` was probably meant to be, if one is close enough. */
export function didYouMean(word: string, known: readonly string[]): string | undefined {
  if (known.length === 0 || word === '') return undefined;
  const best = closest(word, [...known]);
  const apart = distance(word, best);
  return apart > 0 && apart <= MAX_DISTANCE && (best.length - apart) / best.length > MIN_SIMILARITY ? best : undefined;
}

/** `did you mean keys.url? ` before `rest`, or `rest` alone. */
export const suggesting = (word: string, known: readonly string[], rest: string): string => {
  const meant = didYouMean(word, known);
  return meant === undefined ? rest : `did you mean ${meant}? ${rest}`;
};
