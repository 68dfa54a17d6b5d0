// How far long work is, on the status line: "products: 400 of 2000 · 812/s · about 2 s left". Redrawn at most
// every REDRAW_MS (a terminal drawing every row of a fast batch would slow it down), the first and the last
// count always. The rate and the time left appear once there is a second of work to measure them on.
import type { StatusLine } from './status-line.js';

export const REDRAW_MS = 100;
const MEASURE_AFTER_MS = 1000;

export interface Progress {
  /** `done` of `total` so far; the line is erased once done reaches total. */
  update(done: number, total: number): void;
  /** Every item is done, and `what` is still going on (building indexes): said without a count. */
  finishing(what: string): void;
  /** The work is over, or failed: the line goes. */
  end(): void;
}

export interface ProgressOptions {
  /** Milliseconds on a clock that only goes forward; tests pass a fake one. */
  now?: () => number;
}

export function startProgress(line: StatusLine, noun: string, { now = () => performance.now() }: ProgressOptions = {}): Progress {
  const started = now();
  let drawnAt: number | undefined;
  let ended = false;
  return {
    update(done, total) {
      if (ended) return;
      if (done >= total) {
        line.set(undefined);
        drawnAt = undefined;
        return;
      }
      const at = now();
      if (drawnAt !== undefined && at - drawnAt < REDRAW_MS) return;
      drawnAt = at;
      line.set(progressText(noun, done, total, at - started));
    },
    finishing(what) {
      if (!ended) line.set(`${noun}: ${what}`);
    },
    end() {
      ended = true;
      line.set(undefined);
    },
  };
}

/** The text of the line, after `elapsedMs` of work. */
export function progressText(noun: string, done: number, total: number, elapsedMs: number): string {
  const count = `${noun}: ${done} of ${total}`;
  if (elapsedMs < MEASURE_AFTER_MS || done === 0) return count;
  const perSecond = (done * 1000) / elapsedMs;
  const rate = perSecond >= 10 ? String(Math.round(perSecond)) : perSecond.toFixed(1);
  return `${count} · ${rate}/s · about ${duration(((total - done) / perSecond) * 1000)} left`;
}

/** A wait or a time left, as a person reads it: "0.4 s", "12 s", "3 min 20 s", "2 h 5 min". */
export function duration(ms: number): string {
  if (ms < 1000) return `${(Math.max(ms, 0) / 1000).toFixed(1)} s`;
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min${seconds % 60 ? ` ${seconds % 60} s` : ''}`;
  const minutes = Math.ceil(seconds / 60);
  return `${Math.floor(minutes / 60)} h${minutes % 60 ? ` ${minutes % 60} min` : ''}`;
}
