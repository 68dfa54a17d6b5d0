// The catalog's SQLite connection over better-sqlite3, for the Node lines without a usable node:sqlite. It is an
// optional dependency (a native addon that npm builds from source where it cannot fetch a prebuilt one), so it may
// be missing, or built for another Node: required only here, when first used.
import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase, SqliteOpenOptions } from './types.js';

export function openBetterSqlite3(file: string, options: SqliteOpenOptions): SqliteDatabase {
  // From beside this file, as an import would: in the package, its own node_modules and then the folder it is
  // installed in (so `npm install -g better-sqlite3` next to a global trident is found).
  const Database = process.getBuiltinModule('node:module').createRequire(__filename)('better-sqlite3') as typeof BetterSqlite3;
  return new Database(file, { readonly: options.readonly ?? false });
}

/** Whether an error of opening a database says that better-sqlite3 itself is not installed. */
export function betterSqlite3Missing(error: unknown): boolean {
  const { code, message } = error as NodeJS.ErrnoException;
  return code === 'MODULE_NOT_FOUND' && message.startsWith("Cannot find module 'better-sqlite3'");
}
