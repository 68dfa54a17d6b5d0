// Help text fitted to the terminal. Commander wraps its own lists of options and commands, but not the text
// the groups add after them (notes on connections, examples): those lines are wrapped here, at spaces only,
// never inside a word. Prose keeps its hanging indent (under the text after a "term  " column); an example
// command is continued with " \" on the next line, so that it still works when pasted.

/**
 * Width of help text: its characters (help is ours, with no wide or combining characters). Not string-width,
 * which every command would then load at start-up.
 */
const stringWidth = (text: string) => Array.from(text).length;

const EXAMPLE = '  $ ';
const CONTINUED = '      ';

export function wrapHelp(text: string, width: number): string {
  return text
    .split('\n')
    .flatMap((line) => (stringWidth(line) <= width ? [line] : line.startsWith(EXAMPLE) ? wrapCommand(line, width) : wrapProse(line, width)))
    .join('\n');
}

function wrapProse(line: string, width: number): string[] {
  const head = /^\s*(?:\S+ {2,})?/.exec(line)![0];
  return fill(line.slice(head.length).split(/ +/), head, ' '.repeat(head.length), width, '');
}

function wrapCommand(line: string, width: number): string[] {
  return fill(shellWords(line.slice(EXAMPLE.length)), EXAMPLE, CONTINUED, width, ' \\');
}

/** Words on lines of at most `width` (a word longer than a line gets a line of its own), `end` closing every line but the last. */
function fill(words: string[], first: string, next: string, width: number, end: string): string[] {
  const lines: string[] = [];
  let current = first;
  let empty = true;
  for (const word of words) {
    const joined = empty ? `${current}${word}` : `${current} ${word}`;
    if (empty || stringWidth(joined) + end.length <= width) {
      current = joined;
      empty = false;
      continue;
    }
    lines.push(`${current}${end}`);
    current = `${next}${word}`;
  }
  lines.push(current);
  return lines;
}

/** A command line split at the spaces the shell splits at: not inside quotes, and a comment kept whole. */
export function shellWords(command: string): string[] {
  const words: string[] = [];
  let word = '';
  let quote: string | undefined;
  for (let at = 0; at < command.length; at += 1) {
    const char = command[at]!;
    if (quote) {
      word += char;
      if (char === '\\' && quote === '"' && at + 1 < command.length) word += command[(at += 1)];
      else if (char === quote) quote = undefined;
      continue;
    }
    if (char === '\\' && at + 1 < command.length) {
      word += char + command[(at += 1)];
      continue;
    }
    if (char === '#' && word === '') {
      words.push(command.slice(at));
      return words;
    }
    if (char === ' ') {
      if (word !== '') words.push(word);
      word = '';
      continue;
    }
    if (char === "'" || char === '"') quote = char;
    word += char;
  }
  if (word !== '') words.push(word);
  return words;
}
