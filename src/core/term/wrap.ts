// Text wrapped to a width without splitting what gets copied: an id, a number, a date or a name is never
// broken over two lines. Only a word too long to be one (a path, a URL, `key=value`) is broken, at its
// slashes and equals signs first, and a UUID inside it stays whole even then.
import stringWidth from 'string-width';

/** A word (no spaces) up to this long is an id, a number, a date or a name: never split over lines. */
export const WHOLE_WORD = 40;

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/**
 * The pieces a word may be broken into, in order. A word up to WHOLE_WORD wide is one piece, unless it holds
 * wide characters. A longer one
 * breaks after each '/', '=', ',', '&', '?' and ';'; a part still longer than WHOLE_WORD keeps each UUID in it
 * whole and may break between any two other characters.
 */
export function pieces(word: string): string[] {
  const width = stringWidth(word);
  // Wider than its characters: text in a script written without spaces (Chinese, Japanese), which breaks
  // between its wide characters.
  if (width > [...word].length) return loosePieces(word);
  if (width <= WHOLE_WORD) return [word];
  return word.split(/(?<=[/=,&?;])/).flatMap((part) => (stringWidth(part) <= WHOLE_WORD ? [part] : loosePieces(part)));
}

function loosePieces(part: string): string[] {
  const found: string[] = [];
  let from = 0;
  for (const match of part.matchAll(UUID)) {
    found.push(...part.slice(from, match.index), match[0]);
    from = match.index + match[0].length;
  }
  found.push(...part.slice(from));
  return found;
}

/** Display width of the widest piece of any of `texts` that wrapping must keep whole. */
export function widestPiece(texts: readonly string[]): number {
  let widest = 0;
  for (const text of texts)
    for (const word of text.split(/\s/)) for (const piece of pieces(word)) widest = Math.max(widest, stringWidth(piece));
  return widest;
}

/**
 * A cell's text wrapped to `width` columns: at spaces where it can, then between the pieces of a longer word.
 * A line is wider than `width` only when it is a single piece wider than that (an id on a narrow screen).
 * `anywhere`: a word wider than `width` breaks between any two characters (text that is read, not copied).
 */
export function wrapCell(text: string, width: number, anywhere = false): string {
  if (width < 1) return text;
  return text
    .split('\n')
    .flatMap((paragraph) => wrapLine(paragraph, width, anywhere ? (word) => (stringWidth(word) > width ? [...word] : [word]) : pieces))
    .join('\n');
}

function wrapLine(line: string, width: number, split: (word: string) => string[]): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of line.split(' ')) {
    const joined = current === '' ? word : `${current} ${word}`;
    if (stringWidth(joined) <= width) {
      current = joined;
      continue;
    }
    if (current !== '') lines.push(current);
    current = '';
    for (const piece of split(word)) {
      if (current !== '' && stringWidth(current + piece) > width) {
        lines.push(current);
        current = '';
      }
      current += piece;
    }
  }
  lines.push(current);
  return lines;
}
