// The catalog's SQLite connection over node-sqlite3-wasm (SQLite compiled to WebAssembly, reading and writing the
// file itself through node:fs), for the Node lines without a usable node:sqlite. A WebAssembly build needs no
// compiler at install and runs on every Node; it is required only here, when first used, and stays a package
// (it reads its .wasm from beside its own files). Made to answer as node-sqlite.ts does.
import type { Database as WasmDatabase, Statement as WasmStatement } from 'node-sqlite3-wasm';
import { BUSY_TIMEOUT } from './node-sqlite.js';
import { transaction } from './transaction.js';
import type { SqliteDatabase, SqliteFunctionOptions, SqliteOpenOptions, SqliteStatement } from './types.js';

interface WasmModule {
  Database: typeof WasmDatabase;
}

let loaded: WasmModule | undefined;

function wasmSqlite(): WasmModule {
  loaded ??= process.getBuiltinModule('node:module').createRequire(__filename)('node-sqlite3-wasm') as WasmModule;
  return loaded;
}

export function openWasmSqlite(file: string, options: SqliteOpenOptions): SqliteDatabase {
  const { Database } = wasmSqlite();
  let db: WasmDatabase;
  try {
    db = new Database(file, { readOnly: options.readonly ?? false });
  } catch (error) {
    // Its own words name the file and not the cause: SQLite's, as node:sqlite says them.
    throw new Error('unable to open database file', { cause: error });
  }
  db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT}`);
  return new WasmSqliteDatabase(db);
}

class WasmSqliteDatabase implements SqliteDatabase {
  constructor(private readonly db: WasmDatabase) {}

  prepare(sql: string): SqliteStatement {
    return new WasmSqliteStatement(this.db.prepare(sql), parameterNames(sql));
  }

  exec(sql: string): void {
    this.db.exec(sql);
  }

  function(name: string, options: SqliteFunctionOptions, fn: (...args: unknown[]) => unknown): void {
    // node-sqlite3-wasm declares a function with as many arguments as `fn.length`; SQLite takes -1 for any number.
    const declared = (...args: unknown[]) => fn(...args);
    Object.defineProperty(declared, 'length', { value: options.varargs ? -1 : fn.length });
    this.db.function(name, declared as Parameters<WasmDatabase['function']>[1], { deterministic: options.deterministic ?? false });
  }

  transaction(fn: () => void): () => void {
    return transaction(
      (sql) => this.db.exec(sql),
      () => this.db.inTransaction,
      fn,
    );
  }

  close(): void {
    this.db.close();
  }
}

type Shape = 'object' | 'first' | 'array';

class WasmSqliteStatement implements SqliteStatement {
  private shape: Shape = 'object';

  constructor(
    private readonly statement: WasmStatement,
    private readonly names: ReadonlyMap<string, string>,
  ) {}

  get(...params: unknown[]): unknown {
    const rows = this.statement.iterate(this.bound(params));
    const first = rows.next();
    // A statement stepped to its first row holds SQLite's read lock (here a directory beside the file) until it
    // is stepped to its end or reset: the rest is stepped through, so no lock outlives the call.
    for (let next = first; !next.done; next = rows.next());
    return first.done ? undefined : this.shaped(first.value);
  }

  all(...params: unknown[]): unknown[] {
    return this.statement.all(this.bound(params)).map((row) => this.shaped(row));
  }

  run(...params: unknown[]): void {
    this.statement.run(this.bound(params));
  }

  pluck(): SqliteStatement {
    this.shape = 'first';
    return this;
  }

  raw(): SqliteStatement {
    this.shape = 'array';
    return this;
  }

  private shaped(row: object): unknown {
    if (this.shape === 'object') return row;
    const values = Object.values(row);
    return this.shape === 'first' ? values[0] : values;
  }

  /**
   * node-sqlite3-wasm binds an object's keys as written (`@name`) and refuses a key the SQL does not use; the
   * catalog binds bare names, one object to several statements: the names this statement uses, with their sign.
   */
  private bound(params: unknown[]): never {
    const [first] = params;
    if (params.length === 1 && first !== null && typeof first === 'object' && !Array.isArray(first) && !(first instanceof Uint8Array)) {
      const named: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(first)) {
        const parameter = this.names.get(key);
        if (parameter !== undefined) named[parameter] = value;
      }
      return named as never;
    }
    return params as never;
  }
}

/** The named parameters of `sql` (`@name`, `:name`, `$name`), by bare name; quoted text and comments are skipped. */
function parameterNames(sql: string): Map<string, string> {
  const names = new Map<string, string>();
  const code = sql.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|--[^\n]*|\/\*[\s\S]*?\*\//g, ' ');
  for (const [parameter, name] of code.matchAll(/[@:$]([A-Za-z_][A-Za-z0-9_]*)/g)) names.set(name!, parameter);
  return names;
}
