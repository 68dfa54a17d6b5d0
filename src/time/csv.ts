// The CSV of `customer-update --from-csv`: columns id and name in any order, parsed with csv-parse (quotes,
// commas and newlines inside quotes, a BOM, CRLF), and the whole file checked before any request.
import { mebibytesFromEnv } from '../core/files/capped-read.js';
import { usageError } from '../core/errors.js';
import type { ReadInputOptions } from '../core/term/read-input.js';
import { nameProblem } from '../core/names.js';
import type { Id } from '../wire/time/ids.js';
import { positiveId } from './ids.js';

export interface CustomerRow {
  /** Line of the file where the row starts: how every message numbers rows. */
  line: number;
  id: Id;
  name: string;
}

const COLUMNS = ['id', 'name'];
export const CSV_MAX_ENV = 'TRIDENT_MAX_CSV_MB';
const DEFAULT_CSV_MB = 64;

/** How much of a --from-csv file (or stdin) is read at most: TRIDENT_MAX_CSV_MB, default 64 MiB. */
export function csvReadOptions(env: NodeJS.ProcessEnv): ReadInputOptions {
  return {
    maxBytes: mebibytesFromEnv(env, CSV_MAX_ENV) ?? DEFAULT_CSV_MB * 1024 * 1024,
    hint: `split the file, or raise ${CSV_MAX_ENV} (MiB, default ${DEFAULT_CSV_MB})`,
  };
}
const MAX_PROBLEMS_SHOWN = 5;

/** A row of the file that cannot be sent, and why. */
export interface InvalidRow {
  line: number;
  problem: string;
}

/**
 * The rows of the file. An invalid row is a usage error (exit 2) naming the line of every problem found, unless
 * `skipInvalid`: then the invalid rows come back apart, and only a file with no valid row is an error.
 */
export async function parseCustomerCsv(
  text: string,
  source: string,
  skipInvalid = false,
): Promise<{ rows: CustomerRow[]; invalid: InvalidRow[] }> {
  const { parse } = await import('csv-parse/sync');
  let records: Array<{ record: string[]; raw: string }>;
  try {
    records = parse(text, { bom: true, raw: true, relax_column_count: true }) as unknown as Array<{ record: string[]; raw: string }>;
  } catch (error) {
    const { lines, message } = error as Error & { lines?: number };
    throw usageError(`cannot read ${source}${lines ? ` line ${lines}` : ''}: ${message.replace(/ at line \d+/, '')}`);
  }

  // Every line belongs to one record's raw text (empty lines are records too), so counting its line breaks
  // gives each record's first line, even when a quoted name spans lines.
  let nextLine = 1;
  const lines = records
    .map(({ record, raw }) => {
      const line = nextLine;
      // csv-parse keeps the record's own line ending in `raw` for some inputs and not for others.
      nextLine += (raw.replace(/(\r\n|\n|\r)$/, '').match(/\r\n|\n|\r/g)?.length ?? 0) + 1;
      return { record, line };
    })
    .filter(({ record }) => !(record.length === 1 && record[0]!.trim() === ''));

  const [header, ...data] = lines;
  if (!header) throw usageError(`${source} is empty`, 'the first line must be the header: id,name');
  const names = header.record.map((cell) => cell.trim().toLowerCase());
  if (names.length !== COLUMNS.length || !COLUMNS.every((column) => names.includes(column))) {
    throw usageError(
      `${source} line ${header.line}: the header must be exactly the columns id and name (in any order), not "${header.record.join(',')}"`,
    );
  }
  const idAt = names.indexOf('id');
  const nameAt = names.indexOf('name');

  const invalid: InvalidRow[] = [];
  const firstLineOfId = new Map<Id, number>();
  const rows: CustomerRow[] = [];
  data.forEach(({ record, line }) => {
    const problem = rowProblem(record, idAt, nameAt, firstLineOfId);
    if (problem) {
      invalid.push({ line, problem });
      return;
    }
    const id = positiveId(record[idAt]!)!;
    firstLineOfId.set(id, line);
    rows.push({ line, id, name: record[nameAt]!.trim() });
  });
  const problems = invalid.map(({ line, problem }) => `line ${line}: ${problem}`);
  if (problems.length > 0 && (!skipInvalid || rows.length === 0)) {
    const rest = problems.slice(1, MAX_PROBLEMS_SHOWN);
    const more = problems.length > MAX_PROBLEMS_SHOWN ? `; and ${problems.length - MAX_PROBLEMS_SHOWN} more` : '';
    throw usageError(`${source} ${problems[0]}; nothing was sent`, rest.length > 0 ? `also ${rest.join('; ')}${more}` : undefined);
  }
  if (rows.length === 0) throw usageError(`${source} has a header but no rows`);
  return { rows, invalid };
}

function rowProblem(record: string[], idAt: number, nameAt: number, firstLineOfId: Map<Id, number>): string | undefined {
  if (record.length !== COLUMNS.length) return `expected 2 fields (id,name), found ${record.length}`;
  const idText = record[idAt]!;
  const id = positiveId(idText);
  if (id === undefined) return `id "${idText}" is not a positive whole number`;
  if (record[nameAt]!.trim() === '') return `the name of customer ${id} is empty`;
  const problem = nameProblem(record[nameAt]!.trim());
  if (problem) return `the name of customer ${id} ${problem}`;
  const first = firstLineOfId.get(id);
  if (first !== undefined) return `customer ${id} appears again (first on line ${first})`;
  return undefined;
}
