// Opens the catalog's SQLite file with the SQLite this Node has: node:sqlite, built into Node, where it has all
// that node-sqlite.ts uses (Node 22.16 and later); else better-sqlite3, an optional dependency. better-sqlite3 up
// to 12 also aborts the process on Node 24 when a statement is collected or the process ends (its native cleanup
// hooks outlive Node's environment there), and the release that fixes it no longer runs on Node 20. With neither,
// only the sandbox is missing: no other command opens a database.
import { usageError } from '../../../core/errors.js';
import { betterSqlite3Missing, openBetterSqlite3 } from './better-sqlite3.js';
import { nodeSqlite, openNodeSqlite } from './node-sqlite.js';
import type { SqliteDatabase, SqliteOpenOptions } from './types.js';

export function openSqlite(file: string, options: SqliteOpenOptions = {}): SqliteDatabase {
  const builtIn = nodeSqlite();
  return builtIn ? openNodeSqlite(builtIn, file, options) : openBetterSqlite3(file, options);
}

/** Fails with what to install when this Node has no SQLite the sandbox can open a database with. */
export function ensureSqlite(): void {
  if (nodeSqlite()) return;
  try {
    openBetterSqlite3(':memory:', {}).close();
  } catch (error) {
    const why = betterSqlite3Missing(error)
      ? 'better-sqlite3 is not installed'
      : `better-sqlite3 cannot be loaded (${(error as Error).message.split('\n')[0]})`;
    throw usageError(
      `the sandbox needs SQLite: Node ${process.version} has no node:sqlite it can use, and ${why}`,
      'install better-sqlite3 for this Node beside trident (npm install -g better-sqlite3), or run trident on Node 22.16 or newer',
    );
  }
}
