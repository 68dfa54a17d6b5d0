// Renders what commands produce: a table for people, json/ndjson/csv/tsv for scripts. Lists stream:
// ndjson, csv and tsv print rows as they arrive; json streams one array; only the table waits.
import { once } from 'node:events';
import { usageError } from '../errors.js';
import { jsonText } from '../json/big-integers.js';
import { escapeControls, escapeDataControls } from './printable.js';
import { spreadsheetSafe } from './spreadsheet-safe.js';

export const FORMATS = ['table', 'json', 'ndjson', 'csv', 'tsv'] as const;
export type Format = (typeof FORMATS)[number];

export interface Column<T> {
  header: string;
  value: (row: T) => unknown;
  /** The field of the machine record it shows: the name --columns takes (default: the header). */
  key?: string;
  /** Hidden to fit a narrow terminal, lowest first (a table never cuts a number or an id); a column without one is always shown. */
  hide?: number;
}

const keyOf = (column: Column<never>) => column.key ?? column.header;

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

/**
 * `--no-color` and NO_COLOR switch colour off; FORCE_COLOR (other than 0) forces it; else only on a TTY
 * that is not TERM=dumb (a terminal that shows escape codes as text).
 */
export function useColor(flag: boolean | undefined, env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  if (flag === false) return false;
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '') return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  return isTTY && env.TERM !== 'dumb';
}

/** `--columns a,b,c` as a list of names; an empty name is a usage error. */
export function parseColumnNames(text: string): string[] {
  const names = text.split(',').map((name) => name.trim());
  if (names.some((name) => name === '')) throw usageError(`invalid --columns "${text}": expected names separated by commas, e.g. --columns id,title`);
  return names;
}

/** A cell value as text: nulls empty, lists comma-joined, objects as JSON. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value) && value.every((item) => typeof item !== 'object' || item === null)) return value.join(',');
  if (typeof value === 'object') return jsonText(value);
  return String(value);
}

/** A csv or tsv cell's text before the format's own escapes: safe to open in a spreadsheet (see spreadsheet-safe.ts). */
const dataText = (value: unknown, decimal?: boolean) => spreadsheetSafe(value, cellText(value), decimal);

/**
 * TSV cannot quote: escape the characters that would break a line or a column, and every other control
 * character (ESC as "\e"), so that `trident ... | grep` cannot drive the terminal it prints on.
 */
export function tsvField(value: unknown, decimal?: boolean): string {
  return escapeDataControls(dataText(value, decimal).replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\r/g, '\\r').replace(/\n/g, '\\n'));
}

/** One csv or tsv line of `values`; `decimals` says which of them are decimals written as text. */
type LineWriter = (values: readonly unknown[], decimals?: readonly boolean[]) => string;

/** What writes a CSV record: quoted where needed (newlines and tabs stay, quoted), other control characters escaped. */
async function csvWriter(): Promise<LineWriter> {
  const { stringify } = await import('csv-stringify/sync');
  return (values, decimals) => stringify([values.map((value, at) => escapeDataControls(dataText(value, decimals?.[at])))], { eof: true, record_delimiter: '\n' });
}

const tsvLine: LineWriter = (values, decimals) => `${values.map((value, at) => tsvField(value, decimals?.[at])).join('\t')}\n`;

type Row = Record<string, unknown>;

/**
 * The rows of a list: any iterable, or `{ pages }` when they arrive a page at a time (`--all`), which are
 * then written a page at a time too.
 */
export type Rows<T> = Iterable<T> | AsyncIterable<T> | { pages: AsyncIterable<readonly T[]> };

function pagesOf<T>(rows: Rows<T>): AsyncIterable<readonly T[]> | Iterable<readonly T[]> {
  if ('pages' in rows) return rows.pages;
  if (Symbol.asyncIterator in rows) return oneByOne(rows);
  return [Array.from(rows)];
}

/** Every row, held: for what needs them all (a table, jq). */
async function allRows<T>(rows: Rows<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const page of pagesOf(rows)) for (const row of page) all.push(row);
  return all;
}

/** Rows that arrive one at a time are written as they arrive. */
async function* oneByOne<T>(rows: AsyncIterable<T>): AsyncIterable<readonly T[]> {
  for await (const row of rows) yield [row];
}

/** --jq: given the value that -o json would print, writes what to print instead (see core/term/jq.ts). */
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

export interface OutputChoices {
  /** `--columns`: the columns of table, csv and tsv output, by the names csv headers use. */
  columns?: string;
  /** Where notes for people go (stderr): which columns a table hid to fit. */
  note?: (message: string) => void;
}

export class Output {
  private chosen: string[] | undefined;
  private note: (message: string) => void = () => undefined;

  constructor(
    private readonly sink: Sink,
    readonly format: Format,
    readonly color: boolean,
    readonly jsonFilter?: JsonFilter,
  ) {}

  configure(choices: OutputChoices): void {
    if (choices.columns !== undefined) this.chosen = parseColumnNames(choices.columns);
    if (choices.note) this.note = choices.note;
  }

  /**
   * Refuses (exit 2) a `--columns` name that is not one of `known`: commands whose fields are known before
   * the request call it first, so that a typo costs no request.
   */
  checkColumns(known: readonly string[]): void {
    if (!this.chosen || this.format === 'json' || this.format === 'ndjson') return;
    const unknown = this.chosen.filter((name) => !known.includes(name));
    if (unknown.length > 0) {
      throw usageError(`unknown column${unknown.length > 1 ? 's' : ''} in --columns: ${unknown.join(', ')}`, `the columns here: ${known.join(', ')}`);
    }
  }

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
   * of `toRecord(row)` (csv/tsv take their header from the first record, or from `fields`, the record's
   * fields, when there is none). `--columns` chooses among the fields for table, csv and tsv. `decimals` are
   * the fields that hold decimal numbers written as text (exact amounts): csv and tsv treat them as numbers.
   * Returns the number of rows.
   */
  async list<T>(
    rows: Rows<T>,
    columns: Array<Column<T>>,
    toRecord: (row: T) => Row = (row) => row as Row,
    fields?: readonly string[],
    decimals: readonly string[] = [],
  ): Promise<number> {
    const known = (record?: Row) => [...new Set([...(fields ?? []), ...columns.map(keyOf), ...Object.keys(record ?? {})])];
    let count = 0;
    if (this.jsonFilter && this.format === 'json') {
      // jq sees the whole array, as -o json would print it (with --all too: every page is held in memory).
      const records = (await allRows(rows)).map(toRecord);
      await this.jsonFilter(records, (text) => this.write(text));
      return records.length;
    }
    if (this.format === 'table') {
      const all = await allRows(rows);
      count = all.length;
      if (this.chosen && (fields || count > 0)) this.checkColumns(known(count > 0 ? toRecord(all[0]!) : undefined));
      const shown = this.chosen ? this.chosen.map((name) => columns.find((column) => keyOf(column) === name) ?? recordColumn(name, toRecord)) : columns;
      if (count > 0) await this.write(await this.listTable(shown, all, this.chosen === undefined));
      return count;
    }
    let header: string[] | undefined = this.chosen;
    let isDecimal: boolean[] = [];
    if (header && fields) this.checkColumns(known());
    const line = await this.lineWriter();
    const batch = new RowBatch(this.sink);
    try {
      if (this.format === 'json') batch.add('[');
      for await (const page of pagesOf(rows)) {
        await batch.room();
        for (const row of page) {
          const record = toRecord(row);
          switch (this.format) {
            case 'json':
              batch.add(`${count === 0 ? '\n  ' : ',\n  '}${jsonText(record)}`);
              break;
            case 'ndjson':
              batch.add(`${jsonText(record)}\n`);
              break;
            case 'csv':
            case 'tsv':
              if (count === 0) {
                if (header) this.checkColumns(known(record));
                header ??= Object.keys(record);
                isDecimal = header.map((key) => decimals.includes(key));
                batch.add(line(header));
              }
              batch.add(line(header!.map((key) => record[key]), isDecimal));
              break;
          }
          count += 1;
        }
      }
      if (this.format === 'json') batch.add(count === 0 ? ']\n' : '\n]\n');
      // No rows: the header alone, when the fields are known, so that a reader still finds its columns.
      header ??= fields ? [...fields] : undefined;
      if (count === 0 && header && (this.format === 'csv' || this.format === 'tsv')) batch.add(line(header));
    } finally {
      // Rows received before a failure are printed too.
      batch.flush();
    }
    await batch.done();
    return count;
  }

  /** Prints one object: a two-column table for people, the object itself for scripts. */
  async object(record: Row, fields?: Array<Column<Row>>): Promise<void> {
    if (this.chosen && this.format !== 'json' && this.format !== 'ndjson') this.checkColumns(Object.keys(record));
    switch (this.format) {
      case 'json':
        if (this.jsonFilter) await this.jsonFilter(record, (text) => this.write(text));
        else await this.write(`${jsonText(record, 2)}\n`);
        return;
      case 'ndjson':
        await this.write(`${jsonText(record)}\n`);
        return;
      case 'csv':
      case 'tsv': {
        const keys = this.chosen ?? Object.keys(record);
        const line = await this.lineWriter();
        await this.write(line(keys) + line(keys.map((key) => record[key])));
        return;
      }
      case 'table': {
        const pairs = this.chosen
          ? this.chosen.map((key) => [key, record[key]])
          : fields
            ? fields.map((f) => [f.header, f.value(record)])
            : Object.entries(record);
        await this.write(await this.recordTable(pairs.map(([key, value]) => [printable(key), printable(value)])));
      }
    }
  }

  /** What writes one csv or tsv line (csv's writer is loaded only when needed). */
  private async lineWriter(): Promise<LineWriter> {
    return this.format === 'csv' ? csvWriter() : tsvLine;
  }

  // Bold is applied here rather than through cli-table3's style, whose colour library decides on its own
  // whether the terminal supports colour: --no-color, NO_COLOR, FORCE_COLOR and TERM=dumb must decide.
  private bold(text: string): string {
    return this.color ? text.split('\n').map((line) => `\u001b[1m${line}\u001b[22m`).join('\n') : text;
  }

  /**
   * A list as a table fitted to the terminal (see table-fit.ts): the columns that may go are hidden first
   * (said on stderr, with the --columns that shows them), then text wraps; nothing is cut.
   */
  private async listTable<T>(columns: Array<Column<T>>, rows: T[], mayHide: boolean): Promise<string> {
    const { fitTable, isWrappable, naturalWidths, wrapCell } = await import('./table-fit.js');
    const head = columns.map((column) => printable(column.header));
    const cells = rows.map((row) => columns.map((column) => printable(column.value(row))));
    const available = this.sink.columns;
    if (!available) return this.draw(head, cells, []);
    const natural = naturalWidths([head, ...cells]);
    // A table that declares no order of importance: the later a column, the sooner it goes (never the first).
    const ranked = columns.some((column) => column.hide !== undefined);
    const hideRank = (column: Column<T>, index: number) => (!mayHide ? undefined : ranked ? column.hide : index > 0 ? columns.length - index : undefined);
    const fitted = fitTable(
      columns.map((column, index) => ({ natural: natural[index]!, wraps: isWrappable(cells.map((row) => row[index]!)), hide: hideRank(column, index) })),
      available,
    );
    if (fitted.hidden.length > 0) {
      const hidden = fitted.hidden.map((index) => keyOf(columns[index]!));
      this.note(`${hidden.join(', ')} hidden to fit ${available} columns; to choose the columns: --columns ${shellQuoted(columns.map(keyOf).join(','))}`);
    }
    const wrap = (text: string, at: number) => (fitted.widths[at]! < natural[fitted.shown[at]!]! ? wrapCell(text, fitted.widths[at]! - 2) : text);
    return this.draw(
      fitted.shown.map((index, at) => wrap(head[index]!, at)),
      cells.map((row) => fitted.shown.map((index, at) => wrap(row[index]!, at))),
      fitted.widths,
    );
  }

  /** A record as field names and values; values wrap to the terminal (paths and ids split, not cut). */
  private async recordTable(pairs: string[][]): Promise<string> {
    const { fitTable, naturalWidths, wrapCell } = await import('./table-fit.js');
    const available = this.sink.columns;
    if (!available || pairs.length === 0) return this.draw(undefined, pairs, []);
    const natural = naturalWidths(pairs);
    const { widths } = fitTable([{ natural: natural[0]!, wraps: false }, { natural: natural[1]!, wraps: true }], available);
    return this.draw(undefined, pairs.map(([key, value]) => [key!, widths[1]! < natural[1]! ? wrapCell(value!, widths[1]! - 2) : value!]), widths);
  }

  /**
   * Draws the table. Rows go without lines between them (a list of 100 stays 100 lines) unless a row spans
   * several lines (wrapped text): then every row is ruled off, so a continuation line is never read as a row.
   */
  private async draw(head: string[] | undefined, rows: string[][], colWidths: number[]): Promise<string> {
    const { default: Table } = await import('cli-table3');
    const ruled = head !== undefined && rows.some((row) => row.some((cell) => cell.includes('\n')));
    const table = new Table({
      head: (head ?? []).map((text) => this.bold(text)),
      style: { head: [], border: [] },
      colWidths,
      wordWrap: false,
      ...(ruled ? {} : { chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' } }),
    });
    for (const cells of rows) table.push(head ? cells : [this.bold(cells[0]!), ...cells.slice(1)]);
    const lines = table.toString().split('\n');
    // The header keeps a rule under it.
    if (head && !ruled && lines.length > 3) lines.splice(2, 0, lines[0]!.replace('┌', '├').replaceAll('┬', '┼').replace('┐', '┤'));
    return `${lines.join('\n')}\n`;
  }
}

/** A cell as a terminal shows it: control, bidi and zero-width characters escaped, newlines too (one row, one line). */
function printable(value: unknown): string {
  return escapeControls(cellText(value));
}

/** A column --columns asks for that the table does not define: the record's field of that name. */
function recordColumn<T>(name: string, toRecord: (row: T) => Row): Column<T> {
  return { header: name, key: name, value: (row) => toRecord(row)[name] };
}

/** A word as a shell reads it back: quoted unless it is plain. */
function shellQuoted(word: string): string {
  return /^[\w,.:@%+=/-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
