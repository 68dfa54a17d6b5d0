// Read-only access to a catalog database in the converter's schema: one connection, prepared statements
// cached by their SQL, and the queries of the public catalog service in groups that share them.
import { existsSync } from 'node:fs';
import { registerCatalogFunctions } from '../sql-functions.js';
import { openSqlite } from '../sqlite/open.js';
import type { SqliteDatabase, SqliteStatement } from '../sqlite/types.js';
import { CountQueries } from './count-queries.js';
import { ProductQueries } from './product-queries.js';
import { ReferenceQueries } from './reference-queries.js';
import { SourceQueries } from './source-queries.js';

export class CatalogDbError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CatalogDbError';
  }
}

const STATEMENT_CACHE_ENTRIES = 256;

export class CatalogDb {
  private readonly statements = new Map<string, SqliteStatement>();
  readonly products: ProductQueries;
  readonly sources: SourceQueries;
  readonly counts: CountQueries;
  readonly references: ReferenceQueries;

  private constructor(
    private readonly db: SqliteDatabase,
    readonly file: string,
  ) {
    const prepare = (sql: string) => this.statement(sql);
    this.products = new ProductQueries(prepare);
    this.sources = new SourceQueries(prepare);
    this.counts = new CountQueries(prepare);
    this.references = new ReferenceQueries(prepare);
  }

  /** Opens read-only; the file must exist, be SQLite and hold catalog_products. */
  static open(file: string): CatalogDb {
    if (!existsSync(file)) throw new CatalogDbError(`catalog database not found: ${file}`);
    let db: SqliteDatabase;
    try {
      db = openSqlite(file, { readonly: true });
    } catch (error) {
      throw new CatalogDbError(`cannot open catalog database ${file}: ${(error as Error).message}`, { cause: error });
    }
    try {
      const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type IN ('table', 'view') AND name = 'catalog_products'").get();
      if (!table) throw new CatalogDbError(`not a catalog database (no catalog_products table): ${file}`);
      registerCatalogFunctions(db);
    } catch (error) {
      db.close();
      if (error instanceof CatalogDbError) throw error;
      throw new CatalogDbError(`not a SQLite catalog database: ${file}: ${(error as Error).message}`, { cause: error });
    }
    return new CatalogDb(db, file);
  }

  close(): void {
    this.statements.clear();
    this.products.close();
    this.db.close();
  }

  /** Throws what SQLite says when the catalog cannot be read. */
  healthCheck(): void {
    this.statement('SELECT 1 FROM catalog_products LIMIT 1').get();
  }

  private statement(sql: string): SqliteStatement {
    let statement = this.statements.get(sql);
    if (!statement) {
      if (this.statements.size >= STATEMENT_CACHE_ENTRIES) this.statements.clear();
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}
