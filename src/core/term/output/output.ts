// Renders what commands produce: a table for people, json/ndjson/csv/tsv for scripts. Lists stream:
// ndjson, csv and tsv print rows as they arrive; json streams one array; only the table waits.
import { suggesting } from '../../did-you-mean.js';
import { usageError } from '../../errors.js';
import { jsonText } from '../../json/big-integers.js';
import { readableTime } from '../times.js';
import { lineWriter, printable } from './cells.js';
import { keyOf, parseColumnNames, recordColumn, type Column, type Row } from './columns.js';
import type { Format } from './format.js';
import { allRows, pagesOf, type Rows } from './rows.js';
import { drainedOrGone, gone, RowBatch, type Sink } from './sink.js';
import { listTable, recordTable, type TableTarget } from './tables.js';

/** --jq: given the value that -o json would print, writes what to print instead (see core/term/jq.ts). */
export type JsonFilter = (value: unknown, write: (text: string) => Promise<void>) => Promise<void>;

export interface OutputChoices {
  /** `--columns`: the fields of every format, by the names csv headers and json records use. */
  columns?: string;
  /** Where notes for people go (stderr): which columns a table hid to fit. */
  note?: (message: string) => void;
  /** `--no-header`: lists print their rows alone (table, csv and tsv). */
  header?: boolean;
  /** The zone tables show times in (TZ); undefined is the system's. */
  timeZone?: string;
}

export class Output {
  private chosen: string[] | undefined;
  private note: (message: string) => void = () => undefined;
  private header = true;
  private timeZone: string | undefined;

  constructor(
    private readonly sink: Sink,
    readonly format: Format,
    readonly color: boolean,
    readonly jsonFilter?: JsonFilter,
  ) {}

  configure(choices: OutputChoices): void {
    if (choices.columns !== undefined) this.chosen = parseColumnNames(choices.columns);
    if (choices.note) this.note = choices.note;
    if (choices.header === false) this.header = false;
    if (choices.timeZone !== undefined) this.timeZone = choices.timeZone;
  }

  /**
   * Refuses (exit 2) a `--columns` name that is not one of `known`: commands whose fields are known before
   * the request call it first, so that a typo costs no request.
   */
  checkColumns(known: readonly string[]): void {
    if (this.format !== 'json' && this.format !== 'ndjson') this.chosenFields(known, []);
  }

  /**
   * The fields `--columns` names, in its order: each a field of the records (`fields`), or the label a table gives
   * one (its column's header, when the column names its field). Anything else is refused (exit 2) with the names
   * there are. Undefined without --columns.
   */
  private chosenFields<T>(fields: readonly string[], columns: Array<Column<T>>): string[] | undefined {
    if (!this.chosen) return undefined;
    const labels = new Map(columns.filter((c) => c.key !== undefined && fields.includes(c.key)).map((c) => [c.header, c.key!]));
    const resolved = this.chosen.map((name) => (fields.includes(name) ? name : labels.get(name)));
    const unknown = this.chosen.filter((_, at) => resolved[at] === undefined);
    if (unknown.length > 0) {
      const friendlier = [...labels.keys()].filter((label) => !fields.includes(label));
      throw usageError(
        `unknown column${unknown.length > 1 ? 's' : ''} in --columns: ${unknown.join(', ')}`,
        suggesting(
          unknown[0]!,
          [...fields, ...friendlier],
          `the columns here: ${fields.join(', ')}${friendlier.length > 0 ? ` (or as the table calls them: ${friendlier.join(', ')})` : ''}`,
        ),
      );
    }
    return resolved as string[];
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
   * fields, when there is none). `--columns` chooses among the fields in every format. `decimals` are
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
    /** The records' fields: those declared, and those of a record. */
    const known = (record?: Row) => [...new Set([...(fields ?? []), ...Object.keys(record ?? {})])];
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
      const chosen = fields || count > 0 ? this.chosenFields(known(count > 0 ? toRecord(all[0]!) : undefined), columns) : this.chosen;
      const shown = chosen
        ? chosen.map((name) => columns.find((column) => keyOf(column) === name) ?? recordColumn(name, toRecord))
        : columns;
      const readable = shown.map((column) => ({
        ...column,
        value: (row: T) => readableTime(keyOf(column), column.value(row), this.timeZone),
      }));
      if (count > 0) await this.write(await listTable(readable, all, this.chosen === undefined, this.tableTarget(), this.header));
      return count;
    }
    let header: string[] | undefined = fields ? this.chosenFields(known(), columns) : this.chosen;
    let isDecimal: boolean[] = [];
    const line = await lineWriter(this.format);
    const batch = new RowBatch(this.sink);
    try {
      for await (const page of pagesOf(rows)) {
        await batch.room();
        for (const row of page) {
          const record = toRecord(row);
          // --columns picks the fields of JSON records too, by the same names csv headers use (the record's keys).
          if (count === 0 && header && !fields && (this.format === 'json' || this.format === 'ndjson')) {
            header = this.chosenFields(known(record), columns);
          }
          const picked = header && (this.format === 'json' || this.format === 'ndjson') ? pick(record, header) : record;
          switch (this.format) {
            case 'json':
              // The bracket waits for the first record, so that a refused --columns prints nothing at all.
              batch.add(`${count === 0 ? '[\n  ' : ',\n  '}${jsonText(picked)}`);
              break;
            case 'ndjson':
              batch.add(`${jsonText(picked)}\n`);
              break;
            case 'csv':
            case 'tsv':
              if (count === 0) {
                if (header && !fields) header = this.chosenFields(known(record), columns);
                header ??= Object.keys(record);
                isDecimal = header.map((key) => decimals.includes(key));
                if (this.header) batch.add(line(header));
              }
              batch.add(
                line(
                  header!.map((key) => record[key]),
                  isDecimal,
                ),
              );
              break;
          }
          count += 1;
        }
      }
      if (this.format === 'json') batch.add(count === 0 ? '[]\n' : '\n]\n');
      // No rows: the header alone, when the fields are known, so that a reader still finds its columns.
      header ??= fields ? [...fields] : undefined;
      if (count === 0 && header && this.header && (this.format === 'csv' || this.format === 'tsv')) batch.add(line(header));
    } finally {
      // Rows received before a failure are printed too.
      batch.flush();
    }
    await batch.done();
    return count;
  }

  /** Prints one object: a two-column table for people, the object itself for scripts. */
  async object(record: Row, fields?: Array<Column<Row>>): Promise<void> {
    if (this.chosen) {
      this.checkColumns(Object.keys(record));
      if (this.format === 'json' || this.format === 'ndjson') record = pick(record, this.chosen);
    }
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
        const line = await lineWriter(this.format);
        await this.write(line(keys) + line(keys.map((key) => record[key])));
        return;
      }
      case 'table': {
        const pairs = this.chosen
          ? this.chosen.map((key) => [key, readableTime(key, record[key], this.timeZone)])
          : fields
            ? fields.map((f) => [f.header, readableTime(keyOf(f), f.value(record), this.timeZone)])
            : // A record without declared fields: its field names, read as words (token_file_removed → token file removed).
              Object.entries(record).map(([key, value]) => [key.replaceAll('_', ' '), readableTime(key, value, this.timeZone)]);
        await this.write(
          await recordTable(
            pairs.map(([key, value]) => [printable(key), printable(value)]),
            this.tableTarget(),
          ),
        );
      }
    }
  }

  private tableTarget(): TableTarget {
    return { width: this.sink.columns, color: this.color, note: this.note };
  }
}

/** The record's fields named in `keys`, in that order (a field the record lacks is null). */
function pick(record: Row, keys: readonly string[]): Row {
  return Object.fromEntries(keys.map((key) => [key, record[key] ?? null]));
}
