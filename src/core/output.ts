// Renders what commands produce: a table for people, json/ndjson/csv/tsv for scripts. Lists stream:
// ndjson, csv and tsv print rows as they arrive; json streams one array; only the table waits.
import { once } from 'node:events';
import { usageError } from './errors.js';
import { escapeControls } from './printable.js';

export const FORMATS = ['table', 'json', 'ndjson', 'csv', 'tsv'] as const;
export type Format = (typeof FORMATS)[number];

export interface Column<T> {
  header: string;
  value: (row: T) => unknown;
}

export interface Sink {
  write(chunk: string): boolean;
  /** A terminal's width: tables are fitted to it. */
  columns?: number;
  once(event: 'drain', listener: () => void): unknown;
}

/** `where` names the value's origin in the message: "--output", "TRIDENT_OUTPUT", ... */
export function parseFormat(value: string, where = 'output format'): Format {
  if (!(FORMATS as readonly string[]).includes(value)) {
    throw usageError(`invalid ${where} "${value}": expected one of ${FORMATS.join(', ')}`);
  }
  return value as Format;
}

/** flag > TRIDENT_OUTPUT > profile > table on a TTY, tsv when piped. */
export function chooseFormat(explicit: string | undefined, isTTY: boolean, where?: string): Format {
  return explicit ? parseFormat(explicit, where) : isTTY ? 'table' : 'tsv';
}

/** `--no-color` and NO_COLOR switch colour off; FORCE_COLOR (other than 0) forces it; else only on a TTY. */
export function useColor(flag: boolean | undefined, env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  if (flag === false) return false;
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '') return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  return isTTY;
}

/** A cell value as text: nulls empty, lists comma-joined, objects as JSON. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value) && value.every((item) => typeof item !== 'object' || item === null)) return value.join(',');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** TSV cannot quote: escape the characters that would break a line or a column. */
export function tsvField(value: unknown): string {
  return cellText(value).replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\r/g, '\\r').replace(/\n/g, '\\n');
}

export async function csvLine(values: unknown[]): Promise<string> {
  const { stringify } = await import('csv-stringify/sync');
  return stringify([values.map(cellText)], { eof: true, record_delimiter: '\n' });
}

type Row = Record<string, unknown>;

/** --jq: given the value that -o json would print, writes what to print instead (see core/jq.ts). */
export type JsonFilter = (value: unknown, write: (text: string) => Promise<void>) => Promise<void>;

/** True once the sink has failed (stdout closed or full, see stdout-failure.ts): writes are then dropped. */
const gone = (sink: Sink) => (sink as { destroyed?: boolean }).destroyed === true;

/** Waits for the sink to take more: 'drain', or its failing or closing (nothing will drain then). */
async function drainedOrGone(sink: Sink): Promise<void> {
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
 * go when the turn ends: stdout to a file or /dev/null is synchronous, and one write per row cost `--all`
 * a system call per product. Rows still come out as soon as the list waits for more.
 */
class RowBatch {
  private text = '';
  private scheduled: ReturnType<typeof setImmediate> | undefined;
  private drained: Promise<void> | undefined;

  constructor(private readonly sink: Sink) {}

  async add(text: string): Promise<void> {
    if (this.drained) await this.drained;
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
    if (this.drained) await this.drained;
  }
}

export class Output {
  constructor(
    private readonly sink: Sink,
    readonly format: Format,
    readonly color: boolean,
    readonly jsonFilter?: JsonFilter,
  ) {}

  async write(text: string): Promise<void> {
    if (gone(this.sink)) return;
    if (!this.sink.write(text)) await drainedOrGone(this.sink);
  }

  /**
   * Writes and waits until the text has really gone out: for what must not be lost silently (a private key
   * on stdout). Rejects with the write's error (a closed pipe, a full disk).
   */
  async writeConfirmed(text: string): Promise<void> {
    if (gone(this.sink)) throw Object.assign(new Error('stdout is closed'), { code: 'EPIPE' });
    await new Promise<void>((resolve, reject) => {
      (this.sink as NodeJS.WritableStream).write(text, (error) => (error ? reject(error) : resolve()));
    });
  }

  /**
   * Prints a list. `columns` pick what a person sees in the table; machine formats carry every field
   * of `toRecord(row)` (csv/tsv take their header from the first record). Returns the number of rows.
   */
  async list<T>(rows: Iterable<T> | AsyncIterable<T>, columns: Array<Column<T>>, toRecord: (row: T) => Row = (row) => row as Row): Promise<number> {
    let count = 0;
    if (this.jsonFilter && this.format === 'json') {
      // jq sees the whole array, as -o json would print it (with --all too: every page is held in memory).
      const records: Row[] = [];
      for await (const row of rows) records.push(toRecord(row));
      await this.jsonFilter(records, (text) => this.write(text));
      return records.length;
    }
    if (this.format === 'table') {
      const body: unknown[][] = [];
      for await (const row of rows) {
        body.push(columns.map((column) => column.value(row)));
        count += 1;
      }
      if (count > 0) await this.write(await this.table(columns.map((c) => c.header), body));
      return count;
    }
    let header: string[] | undefined;
    const batch = new RowBatch(this.sink);
    try {
      if (this.format === 'json') await batch.add('[');
      for await (const row of rows) {
        const record = toRecord(row);
        switch (this.format) {
          case 'json':
            await batch.add(`${count === 0 ? '\n  ' : ',\n  '}${JSON.stringify(record)}`);
            break;
          case 'ndjson':
            await batch.add(`${JSON.stringify(record)}\n`);
            break;
          case 'csv':
          case 'tsv':
            if (!header) {
              header = Object.keys(record);
              await batch.add(await this.line(header));
            }
            await batch.add(await this.line(header.map((key) => record[key])));
            break;
        }
        count += 1;
      }
      if (this.format === 'json') await batch.add(count === 0 ? ']\n' : '\n]\n');
    } finally {
      // Rows received before a failure are printed too.
      batch.flush();
    }
    await batch.done();
    return count;
  }

  /** Prints one object: a two-column table for people, the object itself for scripts. */
  async object(record: Row, fields?: Array<Column<Row>>): Promise<void> {
    switch (this.format) {
      case 'json':
        if (this.jsonFilter) await this.jsonFilter(record, (text) => this.write(text));
        else await this.write(`${JSON.stringify(record, null, 2)}\n`);
        return;
      case 'ndjson':
        await this.write(`${JSON.stringify(record)}\n`);
        return;
      case 'csv':
      case 'tsv': {
        const keys = Object.keys(record);
        await this.write((await this.line(keys)) + (await this.line(keys.map((key) => record[key]))));
        return;
      }
      case 'table': {
        const pairs = fields ? fields.map((f) => [f.header, f.value(record)]) : Object.entries(record);
        await this.write(await this.table(undefined, pairs));
      }
    }
  }

  private async line(values: unknown[]): Promise<string> {
    return this.format === 'csv' ? csvLine(values) : `${values.map(tsvField).join('\t')}\n`;
  }

  private async table(head: string[] | undefined, body: unknown[][]): Promise<string> {
    const [{ default: Table }, { fitWidths, naturalWidths, wrapCell }] = await Promise.all([import('cli-table3'), import('./table-fit.js')]);
    // Bold is applied here rather than through cli-table3's style, whose colour library decides on its own
    // whether the terminal supports colour: --no-color, NO_COLOR and FORCE_COLOR must decide.
    const bold = (text: string) => (this.color ? `\u001b[1m${text}\u001b[22m` : text);
    // A cell may hold several lines; any other control character from a service is shown, not obeyed.
    const rows = body.map((row) => row.map((value) => escapeControls(cellText(value), { keepNewlines: true })));
    const columns = this.sink.columns;
    const colWidths = columns ? fitWidths(naturalWidths(head ? [head, ...rows] : rows), columns) : [];
    // Lists (with a header) keep a row a line, cut to fit; a record's values are wrapped here instead (paths
    // and ids split, not cut: cli-table3 would cut a long word, and its hard wrap breaks colour codes).
    const table = new Table({
      head: (head ?? []).map(bold),
      style: { head: [], border: [] },
      colWidths,
      wordWrap: false,
      chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
    });
    for (const cells of rows) {
      if (head) table.push(cells);
      else table.push([bold(cells[0]!), ...cells.slice(1).map((cell, i) => (colWidths[i + 1] ? wrapCell(cell, colWidths[i + 1]! - 2) : cell))]);
    }
    const lines = table.toString().split('\n');
    // Rows go without lines between them (a list of 100 stays 100 lines); the header keeps one.
    if (head && lines.length > 3) lines.splice(2, 0, lines[0]!.replace('┌', '├').replace(/┬/g, '┼').replace('┐', '┤'));
    return `${lines.join('\n')}\n`;
  }
}
