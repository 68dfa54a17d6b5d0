// The SQLite connection the catalog opens answers alike on every Node line (node:sqlite from Node 22.16 on,
// better-sqlite3 below): the row shapes, parameters, functions and transactions the catalog's code relies on.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlite, sqliteMissing } from '../../../src/sandbox/catalog/sqlite/open.js';
import type { SqliteDatabase } from '../../../src/sandbox/catalog/sqlite/types.js';
import { tempDir } from './fixture.js';

const dir = tempDir();
const file = join(dir, 'shapes.db');
let db: SqliteDatabase;

beforeAll(() => {
  db = openSqlite(file);
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, price REAL)');
  const insert = db.prepare('INSERT INTO t (id, name, price) VALUES (?, ?, ?)');
  db.transaction(() => {
    insert.run(1, 'один', 9.5);
    insert.run(2, 'two', null);
  })();
});
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('openSqlite', () => {
  it('rows as objects with plain numbers, first values (pluck) or arrays (raw); no row is undefined', () => {
    expect({ ...(db.prepare('SELECT * FROM t WHERE id = ?').get(1) as object) }).toEqual({ id: 1, name: 'один', price: 9.5 });
    expect(db.prepare('SELECT * FROM t WHERE id = ?').get(3)).toBeUndefined();
    expect(db.prepare('SELECT id FROM t ORDER BY id').pluck().all()).toEqual([1, 2]);
    expect(db.prepare('SELECT COUNT(*) FROM t').pluck().get()).toBe(2);
    expect(db.prepare('SELECT id FROM t WHERE id = 3').pluck().get()).toBeUndefined();
    expect(db.prepare('SELECT id, name FROM t ORDER BY id').raw().all()).toEqual([
      [1, 'один'],
      [2, 'two'],
    ]);
  });

  it('binds named parameters by bare name, ignores names the SQL does not use, and takes bigints', () => {
    const rows = db.prepare('SELECT id FROM t WHERE name = @name LIMIT @limit OFFSET @offset').pluck().all({
      name: 'two',
      limit: 5,
      offset: 0n,
      unused: 'x',
    });
    expect(rows).toEqual([2]);
  });

  it('SQL functions: fixed or any number of arguments, bigint results as integers', () => {
    db.function('twice', { deterministic: true }, (value: unknown) => BigInt(Number(value)) * 2n);
    db.function('joined', { deterministic: true, varargs: true }, (...values: unknown[]) => values.join('+'));
    expect({ ...(db.prepare("SELECT twice(21) AS n, typeof(twice(1)) AS type, joined(1, 'a', 2.5) AS j").get() as object) }).toEqual({
      n: 42,
      type: 'integer',
      j: '1+a+2.5',
    });
  });

  it('a transaction that throws is rolled back and the error goes on', () => {
    const insert = db.prepare('INSERT INTO t (id, name) VALUES (?, ?)');
    const failing = db.transaction(() => {
      insert.run(10, 'kept?');
      insert.run(1, 'duplicate id');
    });
    expect(failing).toThrow(/UNIQUE/);
    expect(db.prepare('SELECT COUNT(*) FROM t').pluck().get()).toBe(2);
  });

  it('read-only: a missing file fails to open, and writes are refused', () => {
    expect(() => openSqlite(join(dir, 'missing.db'), { readonly: true })).toThrow(/unable to open/);
    const reader = openSqlite(file, { readonly: true });
    try {
      expect(() => reader.exec("INSERT INTO t (name) VALUES ('x')")).toThrow(/readonly/);
    } finally {
      reader.close();
    }
  });
});

describe('sqliteMissing', () => {
  const HINT = 'install better-sqlite3 for this Node beside trident (npm install -g better-sqlite3), or run trident on Node 22.16 or newer';
  const told = (error: unknown) => {
    const { exitCode, message, hint } = sqliteMissing(error);
    return { exitCode, message, hint };
  };
  const lead = `the sandbox needs SQLite: Node ${process.version} has no node:sqlite it can use, and better-sqlite3`;

  it('says which of better-sqlite3 missing, unbuilt or built for another Node, in one line, exit 2', () => {
    const missing = Object.assign(new Error("Cannot find module 'better-sqlite3'\nRequire stack:\n- /x/dist/cli.cjs"), {
      code: 'MODULE_NOT_FOUND',
    });
    expect(told(missing)).toEqual({ exitCode: 2, message: `${lead} is not installed`, hint: HINT });
    // A package it needs is missing: better-sqlite3 is there, but cannot be loaded.
    const dependency = Object.assign(new Error("Cannot find module 'bindings'\nRequire stack:\n- /x/better-sqlite3/lib/database.js"), {
      code: 'MODULE_NOT_FOUND',
    });
    expect(told(dependency).message).toBe(
      `${lead} cannot be loaded (Cannot find module 'bindings' Require stack: - /x/better-sqlite3/lib/database.js)`,
    );
    const unbuilt = new Error(
      'Could not locate the bindings file. Tried:\n → /x/build/better_sqlite3.node\n → /x/build/Release/better_sqlite3.node',
    );
    expect(told(unbuilt).message).toBe(`${lead} cannot be loaded (Could not locate the bindings file.)`);
    const otherNode = Object.assign(
      new Error(
        "The module '/x/build/Release/better_sqlite3.node'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 115. This version of Node.js requires\nNODE_MODULE_VERSION 127.",
      ),
      { code: 'ERR_DLOPEN_FAILED' },
    );
    expect(told(otherNode).message).toBe(
      `${lead} cannot be loaded (The module '/x/build/Release/better_sqlite3.node' was compiled against a different Node.js version using NODE_MODULE_VERSION 115.)`,
    );
  });
});
