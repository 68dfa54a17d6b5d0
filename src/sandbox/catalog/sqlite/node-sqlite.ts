// The catalog's SQLite connection over node:sqlite, made to answer as the catalog's code expects (types.ts): rows
// as objects (or first values, or arrays), parameter objects that may carry names the SQL does not use, the same
// wait on a locked file.
import { transaction } from './transaction.js';
import type { SqliteDatabase, SqliteFunctionOptions, SqliteOpenOptions, SqliteStatement } from './types.js';

// node:sqlite as far as this file uses it: the types of Node 20, the oldest line supported, have none of it.
interface NodeStatement {
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): unknown;
  setReturnArrays(enabled: boolean): void;
  setAllowUnknownNamedParameters(enabled: boolean): void;
}

interface NodeDatabase {
  readonly isTransaction: boolean;
  prepare(sql: string): NodeStatement;
  exec(sql: string): void;
  function(name: string, options: SqliteFunctionOptions, fn: (...args: unknown[]) => unknown): void;
  close(): void;
}

export interface NodeSqliteModule {
  DatabaseSync: new (path: string, options: { readOnly: boolean; timeout: number }) => NodeDatabase;
  StatementSync: { prototype: object };
}

/** How long a statement waits for a lock held by another connection, alike on every backend. */
export const BUSY_TIMEOUT = 5000;

let loaded: { module: NodeSqliteModule | undefined } | undefined;

/**
 * node:sqlite where this Node has all that this file uses, else undefined. Node 20 has no node:sqlite; Node 22
 * has it without a flag from 22.13 on, but the row arrays, `isTransaction` and the busy timeout only from 22.16.
 */
export function nodeSqlite(): NodeSqliteModule | undefined {
  loaded ??= { module: usable(withoutSqliteWarning(() => process.getBuiltinModule('node:sqlite') as NodeSqliteModule | undefined)) };
  return loaded.module;
}

function usable(sqlite: NodeSqliteModule | undefined): NodeSqliteModule | undefined {
  if (!sqlite) return undefined;
  // The row arrays came in the same release as `isTransaction` and the busy timeout, which are not on a prototype.
  return 'setReturnArrays' in sqlite.StatementSync.prototype ? sqlite : undefined;
}

/**
 * Node 22 warns on stderr, once, that SQLite is experimental when node:sqlite is loaded: that warning is not for
 * trident's user, and is held back for this one load. Any other warning goes through.
 */
function withoutSqliteWarning<T>(load: () => T): T {
  const emitWarning = process.emitWarning;
  process.emitWarning = function (this: NodeJS.Process, warning: string | Error, ...rest: unknown[]) {
    const type = typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: string } | undefined)?.type;
    if (type === 'ExperimentalWarning' && String(warning).startsWith('SQLite ')) return;
    return (emitWarning as (...args: unknown[]) => void).call(this, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    return load();
  } finally {
    process.emitWarning = emitWarning;
  }
}

export function openNodeSqlite(sqlite: NodeSqliteModule, file: string, options: SqliteOpenOptions): SqliteDatabase {
  // Read-only opens without SQLite's create flag, so a missing file fails to open rather than being made.
  return new NodeSqliteDatabase(new sqlite.DatabaseSync(file, { readOnly: options.readonly ?? false, timeout: BUSY_TIMEOUT }));
}

class NodeSqliteDatabase implements SqliteDatabase {
  constructor(private readonly db: NodeDatabase) {}

  prepare(sql: string): SqliteStatement {
    return new NodeSqliteStatement(this.db.prepare(sql));
  }

  exec(sql: string): void {
    this.db.exec(sql);
  }

  function(name: string, options: SqliteFunctionOptions, fn: (...args: unknown[]) => unknown): void {
    this.db.function(name, { deterministic: options.deterministic ?? false, varargs: options.varargs ?? false }, fn);
  }

  transaction(fn: () => void): () => void {
    return transaction(
      (sql) => this.db.exec(sql),
      () => this.db.isTransaction,
      fn,
    );
  }

  close(): void {
    this.db.close();
  }
}

class NodeSqliteStatement implements SqliteStatement {
  private plucked = false;

  constructor(private readonly statement: NodeStatement) {
    // The queries bind one parameter object to several statements, each naming only some of its keys:
    // the others are ignored, which node:sqlite refuses unless told.
    statement.setAllowUnknownNamedParameters(true);
  }

  get(...params: unknown[]): unknown {
    const row = this.statement.get(...params);
    return this.plucked && row !== undefined ? (row as unknown[])[0] : row;
  }

  all(...params: unknown[]): unknown[] {
    const rows = this.statement.all(...params);
    return this.plucked ? rows.map((row) => (row as unknown[])[0]) : rows;
  }

  run(...params: unknown[]): void {
    this.statement.run(...params);
  }

  pluck(): SqliteStatement {
    this.statement.setReturnArrays(true);
    this.plucked = true;
    return this;
  }

  raw(): SqliteStatement {
    this.statement.setReturnArrays(true);
    this.plucked = false;
    return this;
  }
}
