// Text bound for a terminal line. Values echoed in messages come from the command line, files and services:
// control characters in them could break the line or drive the terminal (colours, titles, cursor moves),
// so they are shown as escapes; a value of megabytes is shortened in the middle.

// C0 controls, DEL, C1 controls, and the Unicode line and paragraph separators.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** Every control character as a visible escape: "\n", "\t", "\x1b", "\u2028"; `keepNewlines` leaves "\n" alone. */
export function escapeControls(text: string, { keepNewlines = false } = {}): string {
  return text.replace(CONTROL, (char) => {
    if (keepNewlines && char === '\n') return char;
    const code = char.charCodeAt(0);
    return NAMED[char] ?? (code > 0xff ? `\\u${code.toString(16).padStart(4, '0')}` : `\\x${code.toString(16).padStart(2, '0')}`);
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
