// What every group of catalog queries shares: the connection's statement cache it prepares through, and the
// page it is asked for and answers.
import type { SqliteStatement } from '../sqlite/types.js';

/** A prepared statement for `sql`, from the connection's cache. */
export type Prepare = (sql: string) => SqliteStatement;

export interface ListPage<T> {
  items: T[];
  /** `offset` stays a bigint: the service echoes any 64-bit offset exactly. */
  meta: { limit: number; offset: bigint; total: number };
}

export interface PageRequest {
  limit: number;
  offset: bigint;
}
