// What a terminal shows once a program is done with it: the text written to it replayed as a terminal would,
// carriage returns going back to the start of the line and "erase line" emptying it. Text that was drawn
// and taken away again (a progress line) is not on it.

/** The lines left on the screen, in order, without colours. */
export function finalScreen(written: string): string[] {
  const lines: string[] = [''];
  let column = 0;
  const put = (text: string) => {
    const row = lines.length - 1;
    const line = lines[row]!.padEnd(column);
    lines[row] = line.slice(0, column) + text + line.slice(column + text.length);
    column += text.length;
  };
  // A CSI sequence, or a run of other characters, or one of the three that move the cursor.
  for (const [token] of written.matchAll(/\u001b\[[0-9;?]*[A-Za-z]|\r|\n|[^\u001b\r\n]+|\u001b/g)) {
    if (token === '\r') column = 0;
    else if (token === '\n') {
      lines.push('');
      column = 0;
    } else if (token === '\u001b[2K') lines[lines.length - 1] = '';
    else if (!token.startsWith('\u001b')) put(token);
  }
  return lines.map((line) => line.trimEnd());
}

/**
 * The wait of a retry line ("attempt 2 of 4 in 0.4 s"), as a regular expression's source: the waits are jittered
 * and the line counts down, so a run shows tenths below a second and whole seconds above, whichever the machine's
 * speed made it (retryWaitText's unit test holds the exact text).
 */
export const RETRY_WAIT = String.raw`(?:\d\.\d|\d+) s`;
