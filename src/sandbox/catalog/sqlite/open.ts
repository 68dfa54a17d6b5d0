// Opens the catalog's SQLite file with the SQLite this Node has: node:sqlite, built into Node, where it has all
// that node-sqlite.ts uses (Node 22.16 and later); else better-sqlite3, an optional dependency. better-sqlite3 up
// to 12 also aborts the process on Node 24 when a statement is collected or the process ends (its native cleanup
// hooks outlive Node's environment there), and the release that fixes it no longer runs on Node 20. With neither,
// only the sandbox is missing: no other command opens a database.
import { usageError, type TridentError } from '../../../core/errors.js';
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
    throw sqliteMissing(error);
  }
}

/** What the user is told when better-sqlite3, the only SQLite this Node could use, failed to open a database. */
export function sqliteMissing(error: unknown): TridentError {
  const why = betterSqlite3Missing(error) ? 'better-sqlite3 is not installed' : `better-sqlite3 cannot be loaded (${firstSentence(error)})`;
  return usageError(
    `the sandbox needs SQLite: Node ${process.version} has no node:sqlite it can use, and ${why}`,
    'install better-sqlite3 for this Node beside trident (npm install -g better-sqlite3), or run trident on Node 22.16 or newer',
  );
}

/** Node's and the bindings package's load errors run over several lines; their first sentence says what failed. */
function firstSentence(error: unknown): string {
  const text = String((error as Error).message ?? error)
    .replace(/\s+/g, ' ')
    .trim();
  return /^.*?\.(?=\s|$)/.exec(text)?.[0] ?? text;
}
