// Many customer renames from one CSV: bounded concurrency, one result per row in the file's order. Retries
// are the HTTP core's (a POST is repeated only on 429 or a connection never made). After a 429 the rows not yet
// sent are held for its Retry-After and spaced out, all workers alike. After an authentication failure the
// rows not yet sent are skipped: every one of them would fail the same way.
import { ExitCode, TridentError } from '../core/errors.js';
import { Pacer } from '../core/http/pacing.js';
import type { TimeClient } from './client.js';
import type { CustomerRow } from './csv.js';
import type { Id } from '../wire/time/ids.js';
import { mapInOrder } from './pool.js';

export interface RowResult {
  /** The line of the file the row is on. */
  line: number;
  /** null for a row --skip-invalid left out, whose id or name could not be read. */
  id: Id | null;
  name: string | null;
  ok: boolean;
  error?: string;
}

export interface RowOutcome {
  result: RowResult;
  /** 0 for a row that went through, else the exit code its error maps to. */
  exitCode: number;
}

export interface BatchOptions {
  pacer?: Pacer;
  /** Told once, at the first 429. */
  onFirstRateLimit?: () => void;
  /** Told as each row is through, in the order they finish (not the file's): how many are. */
  onRowDone?: (done: number) => void;
}

export function updateCustomers(
  client: Pick<TimeClient, 'updateCustomer'>,
  rows: readonly CustomerRow[],
  concurrency: number,
  { pacer = new Pacer(), onFirstRateLimit, onRowDone }: BatchOptions = {},
): AsyncGenerator<RowOutcome> {
  let authFailed = false;
  let rateLimitSeen = false;
  let done = 0;
  const through = (outcome: RowOutcome): RowOutcome => {
    onRowDone?.((done += 1));
    return outcome;
  };
  const heard = () => {
    if (!rateLimitSeen) onFirstRateLimit?.();
    rateLimitSeen = true;
  };
  // Every 429 widens the gap (jittered, so that the workers do not all come back at once); one that says when
  // to come back also holds the batch until then. The time tracker asks clients to do both.
  return mapInOrder(rows, concurrency, ({ line, id, name }) =>
    pacer.paced(async (onRateLimited): Promise<RowOutcome> => {
      if (authFailed)
        return through({
          result: { line, id, name, ok: false, error: 'skipped: authentication failed on an earlier row' },
          exitCode: ExitCode.auth,
        });
      try {
        await client.updateCustomer(id, name, onRateLimited);
        return through({ result: { line, id, name, ok: true }, exitCode: ExitCode.ok });
      } catch (error) {
        if (!(error instanceof TridentError)) throw error;
        if (error.exitCode === ExitCode.auth) authFailed = true;
        return through({ result: { line, id, name, ok: false, error: error.message }, exitCode: error.exitCode });
      }
    }, heard),
  );
}

export { batchExitCode } from '../core/errors.js';
