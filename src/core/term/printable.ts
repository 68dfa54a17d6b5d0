// Text bound for a terminal line. Values echoed in messages, tables and charts come from the command line,
// files and services: control characters in them could break the line or drive the terminal (colours,
// titles, the clipboard, screen clears), and bidi overrides or zero-width characters could make one text
// look like another ("prod-\u202eredaer" shown as "prod-reader"), so all of them are shown as escapes; a value
// of megabytes is shortened in the middle.

// C0 controls, DEL, C1 controls, the Unicode line and paragraph separators, the bidi marks, embeddings,
// overrides and isolates, and the zero-width characters (spaces, joiners, word joiner, byte order mark).
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

const hex = (code: number, digits: number) => code.toString(16).padStart(digits, '0');

/** Every control character as a visible escape: "\n", "\t", "\x1b", "\u202e"; `keepNewlines` leaves "\n" alone. */
export function escapeControls(text: string, { keepNewlines = false } = {}): string {
  return text.replace(CONTROL, (char) => {
    if (keepNewlines && char === '\n') return char;
    const code = char.charCodeAt(0);
    return NAMED[char] ?? (code > 0xff ? `\\u${hex(code, 4)}` : `\\x${hex(code, 2)}`);
  });
}

/**
 * JSON text as a terminal may show it: what escapeControls escapes and JSON.stringify leaves as it is (C1
 * controls, bidi and zero-width characters, the line and paragraph separators) as \u.... escapes, which
 * JSON reads as the same characters. Newlines between the values stay.
 */
export function escapeJsonControls(json: string): string {
  return json.replace(CONTROL, (char) => (char === '\n' ? char : `\\u${hex(char.charCodeAt(0), 4)}`));
}

// What csv and tsv escape: the C0 and C1 controls and DEL (tab, CR and LF are the formats' own business), and
// the bidi embeddings, overrides and isolates, with which a cell would show its text reordered in a spreadsheet
// or on a terminal.
const DATA_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** A csv or tsv field's control characters as text: ESC as "\e" (as printf writes it), bidi controls "\u....", the others "\x..". */
export function escapeDataControls(text: string): string {
  return text.replace(DATA_CONTROL, (char) => {
    const code = char.charCodeAt(0);
    return char === '\u001b' ? '\\e' : code > 0xff ? `\\u${hex(code, 4)}` : `\\x${hex(code, 2)}`;
  });
}

/** One line of at most about `max` characters: control characters escaped, the middle of a long text left out. */
export function oneLine(text: string, max = 1000): string {
  const escaped = escapeControls(text);
  if (escaped.length <= max) return escaped;
  const chars = Array.from(escaped);
  if (chars.length <= max) return escaped;
  const head = Math.ceil(max * 0.7);
  const tail = max - head;
  return `${chars.slice(0, head).join('')} […${chars.length - head - tail} characters left out…] ${chars.slice(-tail).join('')}`;
}
