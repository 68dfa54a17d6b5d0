// Where output goes (stdout), and writing to it without outrunning it: a write waits for the sink to drain,
// and is dropped once the sink has failed.
import { once } from 'node:events';

export interface Sink {
  write(chunk: string): boolean;
  /** A terminal's width: tables are fitted to it. */
  columns?: number;
  once(event: 'drain', listener: () => void): unknown;
}

/** True once the sink has failed (stdout closed or full, see stdout-failure.ts): writes are then dropped. */
export const gone = (sink: Sink) => (sink as { destroyed?: boolean }).destroyed === true;

/** Waits for the sink to take more: 'drain', or its failing or closing (nothing will drain then). */
export async function drainedOrGone(sink: Sink): Promise<void> {
  const emitter = sink as unknown as NodeJS.EventEmitter;
  const controller = new AbortController();
  try {
    await Promise.race([once(emitter, 'drain', { signal: controller.signal }), once(emitter, 'close', { signal: controller.signal })]);
  } catch {
    // 'error' (once() rejects on it): the output is gone, the command goes on or stops as stdout-failure.ts says.
  } finally {
    controller.abort();
  }
}

/** Past this many characters a batch is written at once, without waiting for the turn to end. */
const BATCH_CHARACTERS = 64 * 1024;

/**
 * Gathers the rows that arrive in one turn of the event loop (a page of a listing) and writes them in one
 * go when the turn ends: stdout to a file or /dev/null is synchronous, and one write per row would cost
 * `--all` a system call per product. Rows still come out as soon as the list waits for more.
 */
export class RowBatch {
  private text = '';
  private scheduled: ReturnType<typeof setImmediate> | undefined;
  private drained: Promise<void> | undefined;

  constructor(private readonly sink: Sink) {}

  /** Resolves when the sink takes more: wait for it before adding the next page. */
  async room(): Promise<void> {
    if (this.drained) await this.drained;
  }

  add(text: string): void {
    this.text += text;
    if (this.text.length >= BATCH_CHARACTERS) this.flush();
    else this.scheduled ??= setImmediate(() => this.flush());
  }

  /** Writes what is gathered now; `done()` also waits for the sink to take it. */
  flush(): void {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    if (!this.text) return;
    const text = this.text;
    this.text = '';
    if (gone(this.sink)) return;
    if (!this.sink.write(text) && !this.drained) {
      this.drained = drainedOrGone(this.sink).then(() => {
        this.drained = undefined;
      });
    }
  }

  async done(): Promise<void> {
    this.flush();
    await this.room();
  }
}
