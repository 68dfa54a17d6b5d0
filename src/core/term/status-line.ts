// The one line at the bottom of stderr that says what long work is doing (how far a list or a batch is, a wait
// before a retry), for a person at a terminal. It is redrawn in place and erased when the work ends or fails,
// and on the way out of the process whatever ends it (the reader of stdout gone, an interrupt), so that none of
// it is left under the shell's prompt. Off with --quiet, when stderr is not a terminal, on TERM=dumb (which
// cannot erase a line), and while rows stream to that same terminal (they would print through it).

/** Back to the start of the line, and erase it. */
export const ERASE_LINE = '\r\u001b[2K';

export interface StatusStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface StatusLineHost {
  stderr: StatusStream;
  stdout: { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  quiet: boolean;
  /** Rows go to stdout as they come (not a table printed at the end): on a terminal they would cross the line. */
  rowsStream: boolean;
}

export class StatusLine {
  private main: string | undefined;
  /** Short-lived texts shown over the main one (waits before a retry), newest last. */
  private readonly over: Array<{ text: string }> = [];
  private drawn = false;

  constructor(private readonly stream: StatusStream) {}

  /** The main text (how far the work is); undefined erases it. */
  set(text: string | undefined): void {
    this.main = text;
    this.draw();
  }

  /** Shows `text` over the main one until the function returned is called. */
  show(text: string): () => void {
    const entry = { text };
    this.over.push(entry);
    this.draw();
    return () => {
      const at = this.over.indexOf(entry);
      if (at < 0) return;
      this.over.splice(at, 1);
      this.draw();
    };
  }

  /** Writes whole lines (a note, a debug line) above the status line, which is drawn again under them. */
  above(lines: string): void {
    this.erase();
    this.stream.write(lines);
    this.draw();
  }

  /** Takes the line off the screen (the process is ending); true if there was one. */
  erase(): boolean {
    if (!this.drawn) return false;
    this.stream.write(ERASE_LINE);
    this.drawn = false;
    return true;
  }

  private draw(): void {
    const text = this.over.at(-1)?.text ?? this.main;
    if (text === undefined) {
      this.erase();
      return;
    }
    // A line that wraps cannot be erased from its end: it is cut to the terminal's width.
    // A pseudo-terminal nobody sized says 0 columns.
    const width = this.stream.columns || 80;
    // The cursor goes back to the start: what another process writes to the terminal meanwhile (`| head`
    // printing a row) covers the line instead of running on after it.
    this.stream.write(`${ERASE_LINE}${text.length >= width ? `${text.slice(0, Math.max(width - 2, 1))}…` : text}\r`);
    this.drawn = true;
  }
}

/**
 * Shows a wait of `ms` over the line, counting down each second (`text` says it for the time left), until the
 * function returned is called: a Retry-After of a minute does not look like a hang.
 */
export function showCountdown(line: StatusLine, ms: number, text: (msLeft: number) => string, now = () => performance.now()): () => void {
  const until = now() + ms;
  let hide = line.show(text(ms));
  const tick = setInterval(() => {
    hide();
    hide = line.show(text(Math.max(until - now(), 0)));
  }, 1000);
  // The wait keeps the process alive, not its countdown.
  tick.unref();
  return () => {
    clearInterval(tick);
    hide();
  };
}

const lines = new WeakMap<object, StatusLine>();

/** The status line of this stderr, or undefined where none may be shown. One per stream, shared by all its users. */
export function statusLineFor(host: StatusLineHost): StatusLine | undefined {
  const { stderr, stdout, env, quiet, rowsStream } = host;
  if (!stderr.isTTY || quiet || env.TERM === 'dumb') return undefined;
  if (stdout.isTTY && rowsStream) return undefined;
  let line = lines.get(stderr);
  if (!line) {
    const made = new StatusLine(stderr);
    lines.set(stderr, made);
    // However the process ends (`| head` closing stdout, an interrupt, a failure), the line goes with it.
    process.once('exit', () => made.erase());
    line = made;
  }
  return line;
}

/** Erases the status line of this stream, if one is shown: before the last words of an interrupted process. */
export function eraseStatusLine(stderr: object): boolean {
  return lines.get(stderr)?.erase() ?? false;
}

/** Writes whole lines to stderr, above its status line if one is shown. */
export function writeAboveStatus(stderr: StatusStream, text: string): void {
  const line = lines.get(stderr);
  if (line) line.above(text);
  else stderr.write(text);
}
