// The status line and the progress counted on it, on a fake terminal and a fake clock: what is drawn, how often,
// and that it is gone when the work ends, fails or is talked over.
import { describe, expect, it, vi } from 'vitest';
import { duration, progressText, REDRAW_MS, startProgress } from '../../../src/core/term/progress.js';
import { finalScreen } from '../../helpers/screen.js';
import { ERASE_LINE, showCountdown, StatusLine, statusLineFor, writeAboveStatus } from '../../../src/core/term/status-line.js';

/** A terminal's stderr that keeps what was written, and what its last line shows now. */
function terminal(columns = 80) {
  const writes: string[] = [];
  const stream = { isTTY: true, columns, write: (text: string) => writes.push(text) };
  /** What the screen's last line shows now. */
  const lastLine = () => finalScreen(writes.join('')).at(-1);
  return { stream, writes, lastLine };
}

function clock() {
  let ms = 0;
  return { now: () => ms, advance: (by: number) => (ms += by) };
}

describe('progress', () => {
  it('counts done of total, redraws at most every REDRAW_MS, and erases the line when the count is complete', () => {
    const { stream, writes, lastLine } = terminal();
    const time = clock();
    const progress = startProgress(new StatusLine(stream), 'rows', time);
    progress.update(1, 400);
    expect(lastLine()).toBe('rows: 1 of 400');
    time.advance(REDRAW_MS - 1);
    progress.update(2, 400);
    expect(lastLine()).toBe('rows: 1 of 400');
    expect(writes).toHaveLength(1);
    time.advance(1);
    progress.update(3, 400);
    expect(lastLine()).toBe('rows: 3 of 400');
    progress.update(400, 400);
    expect(lastLine()).toBe('');
    expect(writes.at(-1)).toBe(ERASE_LINE);
  });

  it('adds the rate and the time left once there is a second of work to measure', () => {
    const { stream, lastLine } = terminal();
    const time = clock();
    const progress = startProgress(new StatusLine(stream), 'products', time);
    time.advance(500);
    progress.update(100, 2000);
    expect(lastLine()).toBe('products: 100 of 2000');
    time.advance(1500);
    progress.update(400, 2000);
    expect(lastLine()).toBe('products: 400 of 2000 · 200/s · about 8 s left');
  });

  it('finishing() says what is still going on once every item is done, without a count', () => {
    const { stream, lastLine } = terminal();
    const progress = startProgress(new StatusLine(stream), 'seeding products', clock());
    progress.update(250, 600);
    progress.finishing('building the indexes');
    expect(lastLine()).toBe('seeding products: building the indexes');
    progress.end();
    expect(lastLine()).toBe('');
    progress.finishing('late');
    expect(lastLine()).toBe('');
  });

  it('end() takes the line away, and later counts (a page still in flight) draw nothing', () => {
    const { stream, lastLine, writes } = terminal();
    const progress = startProgress(new StatusLine(stream), 'rows', clock());
    progress.update(5, 10);
    progress.end();
    expect(lastLine()).toBe('');
    const count = writes.length;
    progress.update(6, 10);
    expect(writes).toHaveLength(count);
  });

  it('formats rates and times a person reads', () => {
    expect(progressText('rows', 3, 10, 2000)).toBe('rows: 3 of 10 · 1.5/s · about 5 s left');
    expect(duration(400)).toBe('0.4 s');
    expect(duration(12_000)).toBe('12 s');
    expect(duration(200_000)).toBe('3 min 20 s');
    expect(duration(180_000)).toBe('3 min');
    expect(duration(7_500_000)).toBe('2 h 5 min');
  });
});

describe('the status line', () => {
  it('shows a wait over the progress and gives the progress back when the wait is over', () => {
    const { stream, lastLine } = terminal();
    const line = new StatusLine(stream);
    line.set('rows: 3 of 10');
    const over = line.show('503: attempt 2 of 4 in 2 s');
    expect(lastLine()).toBe('503: attempt 2 of 4 in 2 s');
    over();
    expect(lastLine()).toBe('rows: 3 of 10');
    line.set(undefined);
    expect(lastLine()).toBe('');
  });

  it('counts a wait down each second, and stops when it is over', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const { stream, writes, lastLine } = terminal();
      const line = new StatusLine(stream);
      line.set('rows: 3 of 10');
      const time = clock();
      const over = showCountdown(line, 2500, (ms) => `429: attempt 2 of 4 in ${Math.ceil(ms / 1000)} s`, time.now);
      expect(lastLine()).toBe('429: attempt 2 of 4 in 3 s');
      time.advance(1000);
      vi.advanceTimersByTime(1000);
      expect(lastLine()).toBe('429: attempt 2 of 4 in 2 s');
      time.advance(1000);
      vi.advanceTimersByTime(1000);
      expect(lastLine()).toBe('429: attempt 2 of 4 in 1 s');
      over();
      expect(lastLine()).toBe('rows: 3 of 10');
      const count = writes.length;
      vi.advanceTimersByTime(5000);
      expect(writes).toHaveLength(count);
    } finally {
      vi.useRealTimers();
    }
  });

  it('writes notes above itself, never into it', () => {
    const { stream, writes, lastLine } = terminal();
    const line = new StatusLine(stream);
    line.set('rows: 3 of 10');
    line.above('warning: slow\n');
    expect(writes.join('')).toBe(`${ERASE_LINE}rows: 3 of 10\r${ERASE_LINE}warning: slow\n${ERASE_LINE}rows: 3 of 10\r`);
    expect(finalScreen(writes.join(''))).toEqual(['warning: slow', 'rows: 3 of 10']);
    expect(lastLine()).toBe('rows: 3 of 10');
  });

  it('is cut to the width of the terminal, so that it never wraps where it cannot be erased', () => {
    const { stream, lastLine } = terminal(20);
    new StatusLine(stream).set('a very long line of progress text');
    expect(lastLine()).toBe('a very long line o…');
    expect(lastLine()!.length).toBeLessThan(20);
  });

  it('is not shown on a stderr that is not a terminal, with --quiet, on TERM=dumb, or when rows stream to the terminal', () => {
    const tty = { isTTY: true, write: () => true };
    const base = { stderr: tty, stdout: { isTTY: false }, env: {}, quiet: false, rowsStream: true };
    expect(statusLineFor(base)).toBeInstanceOf(StatusLine);
    expect(statusLineFor(base)).toBe(statusLineFor({ ...base, rowsStream: false }));
    expect(statusLineFor({ ...base, stderr: { isTTY: false, write: () => true } })).toBeUndefined();
    expect(statusLineFor({ ...base, stderr: { write: () => true } })).toBeUndefined();
    expect(statusLineFor({ ...base, quiet: true })).toBeUndefined();
    expect(statusLineFor({ ...base, env: { TERM: 'dumb' } })).toBeUndefined();
    expect(statusLineFor({ ...base, stdout: { isTTY: true } })).toBeUndefined();
    expect(statusLineFor({ ...base, stdout: { isTTY: true }, rowsStream: false })).toBeInstanceOf(StatusLine);
  });

  it('a stream without a status line gets notes as they are', () => {
    const { stream, writes } = terminal();
    writeAboveStatus(stream, 'note\n');
    expect(writes).toEqual(['note\n']);
  });
});
