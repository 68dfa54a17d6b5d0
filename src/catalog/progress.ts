// A one-line "fetched N of M" on stderr while --all pages through a list, for a person at a terminal.
// Off with --quiet, when stderr is not a terminal, on TERM=dumb (which cannot clear a line), and when rows
// stream to that same terminal (they would print through the line).
import type { Context } from '../context.js';
import type { PageProgress } from './pages.js';

export interface Progress {
  update(progress: PageProgress): void;
  done(): void;
}

const CLEAR_LINE = '\r\u001b[2K';

export function pageProgress(ctx: Context, noun: string): Progress | undefined {
  const { stderr, stdout } = ctx.io;
  if (!stderr.isTTY || ctx.log.quiet || ctx.env.TERM === 'dumb') return undefined;
  if (stdout.isTTY && ctx.format !== 'table') return undefined;
  let shown = false;
  const clear = () => {
    if (shown) stderr.write(CLEAR_LINE);
    shown = false;
  };
  // The reader of stdout going away (`| head -3`) or an interrupt ends the process before done(): the line is
  // cleared on the way out too, so that it is not left under the shell's prompt.
  process.once('exit', clear);
  return {
    update({ fetched, total }) {
      // Cleared as soon as the last page is in: a table is printed right after it.
      shown = fetched < total;
      stderr.write(shown ? `${CLEAR_LINE}${noun}: ${fetched} of ${total}` : CLEAR_LINE);
    },
    done() {
      clear();
      process.off('exit', clear);
    },
  };
}
