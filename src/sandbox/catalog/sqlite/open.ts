// Opens the catalog's SQLite file with the backend this Node line runs well. better-sqlite3 up to 12 aborts the
// process on Node 24 when a statement is collected or the process ends (its native cleanup hooks outlive Node's
// environment there), and the release that fixes it no longer runs on Node 20. node:sqlite loads without a
// warning from Node 24 on, prints an experimental warning on Node 22 and is missing from Node 20: so node:sqlite
// from 24 on, and better-sqlite3 below.
import type BetterSqlite3 from 'better-sqlite3';
import { openNodeSqlite } from './node-sqlite.js';
import type { SqliteDatabase, SqliteOpenOptions } from './types.js';

const USE_NODE_SQLITE = Number(process.versions.node.split('.')[0]) >= 24;

export function openSqlite(file: string, options: SqliteOpenOptions = {}): SqliteDatabase {
  if (USE_NODE_SQLITE) return openNodeSqlite(file, options);
  // Required only here, so that Node 24 never loads the addon; from beside this file, as an import would.
  const Database = process.getBuiltinModule('node:module').createRequire(__filename)('better-sqlite3') as typeof BetterSqlite3;
  return new Database(file, { readonly: options.readonly ?? false });
}
