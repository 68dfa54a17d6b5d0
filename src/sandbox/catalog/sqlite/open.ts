// Opens the catalog's SQLite file with the SQLite this Node has: node:sqlite, built into Node, where it has all
// that node-sqlite.ts uses (Node 22.16 and later); else node-sqlite3-wasm, SQLite compiled to WebAssembly, which
// installs without compiling anything and runs on every Node. Only the sandbox opens a database.
import { nodeSqlite, openNodeSqlite } from './node-sqlite.js';
import type { SqliteDatabase, SqliteOpenOptions } from './types.js';
import { openWasmSqlite } from './wasm-sqlite.js';

export function openSqlite(file: string, options: SqliteOpenOptions = {}): SqliteDatabase {
  const builtIn = nodeSqlite();
  return builtIn ? openNodeSqlite(builtIn, file, options) : openWasmSqlite(file, options);
}
