// Many customer renames from one CSV: bounded concurrency, one result per row in the file's order. Retries
// are the HTTP core's (a POST is repeated only on 429 or a connection never made). After an authentication
// failure the rows not yet sent are skipped: every one of them would fail the same way.
import { ExitCode, TridentError } from '../core/errors.js';
import type { TimeClient } from './client.js';
import type { CustomerRow } from './csv.js';
import { mapInOrder } from './pool.js';

export interface RowResult {
  row: number;
  id: number;
  name: string;
  ok: boolean;
  error?: string;
}

export interface RowOutcome {
  result: RowResult;
  /** 0 for a row that went through, else the exit code its error maps to. */
  exitCode: number;
}

export function updateCustomers(client: Pick<TimeClient, 'updateCustomer'>, rows: readonly CustomerRow[], concurrency: number): AsyncGenerator<RowOutcome> {
  let authFailed = false;
  return mapInOrder(rows, concurrency, async ({ row, id, name }): Promise<RowOutcome> => {
    if (authFailed) return { result: { row, id, name, ok: false, error: 'skipped: authentication failed on an earlier row' }, exitCode: ExitCode.auth };
    try {
      await client.updateCustomer(id, name);
      return { result: { row, id, name, ok: true }, exitCode: ExitCode.ok };
    } catch (error) {
      if (!(error instanceof TridentError)) throw error;
      if (error.exitCode === ExitCode.auth) authFailed = true;
      return { result: { row, id, name, ok: false, error: error.message }, exitCode: error.exitCode };
    }
  });
}

export { batchExitCode } from '../core/errors.js';
