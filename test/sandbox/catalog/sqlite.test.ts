// The SQLite connection the catalog opens answers alike on every Node line (node:sqlite from Node 22.16 on,
// node-sqlite3-wasm below): the row shapes, parameters, functions and transactions the catalog's code relies on.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlite } from '../../../src/sandbox/catalog/sqlite/open.js';
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
    // A name in quoted text or a comment is no parameter.
    const quoted = db.prepare("SELECT '@name' AS text, @name AS value -- @limit").get({ name: 'x', limit: 1 });
    expect({ ...(quoted as object) }).toEqual({ text: '@name', value: 'x' });
  });

  it('a row read with get() leaves no lock behind: another connection writes at once', () => {
    const first = db.prepare('SELECT id FROM t ORDER BY id');
    expect({ ...(first.get() as object) }).toEqual({ id: 1 });
    const writer = openSqlite(file);
    try {
      writer.exec("UPDATE t SET name = 'two' WHERE id = 2");
    } finally {
      writer.close();
    }
  });

  it('SQL functions: fixed or any number of arguments, bigint results as integers', () => {
    db.function('twice', { deterministic: true }, (value: unknown) => BigInt(Number(value)) * 2n);
    db.function('joined', { deterministic: true, varargs: true }, (...values: unknown[]) => values.join('+'));
    expect({ ...(db.prepare('SELECT joined() AS none, joined(1) AS one').get() as object) }).toEqual({ none: '', one: '1' });
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
