// The part of a SQLite connection the catalog uses: node-sqlite.ts meets it over Node's own node:sqlite, on the
// Node lines that have it, and wasm-sqlite.ts over node-sqlite3-wasm elsewhere (open.ts picks).

export interface SqliteStatement {
  /** The first row, or undefined when there is none. Parameters: positional values, or one object of named ones. */
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): void;
  /** From now on, each row is the value of its first column. */
  pluck(): SqliteStatement;
  /** From now on, each row is an array of its values. */
  raw(): SqliteStatement;
}

export interface SqliteFunctionOptions {
  deterministic?: boolean;
  /** Any number of arguments; without it, as many as the function declares. */
  varargs?: boolean;
}

export interface SqliteDatabase {
  prepare(sql: string): SqliteStatement;
  exec(sql: string): void;
  /** A SQL function; integer arguments arrive as numbers, and a bigint result is stored as an integer. */
  function(name: string, options: SqliteFunctionOptions, fn: (...args: unknown[]) => unknown): void;
  /** `fn` wrapped to run in one transaction: committed when it returns, rolled back when it throws. */
  transaction(fn: () => void): () => void;
  close(): void;
}

export interface SqliteOpenOptions {
  /** Read-only, and the file must exist. */
  readonly?: boolean;
}
