// SqliteDatabase#transaction over a connection that runs SQL and says whether a transaction is open: both backends
// wrap a function the same way.

export function transaction(exec: (sql: string) => void, inTransaction: () => boolean, fn: () => void): () => void {
  return () => {
    exec('BEGIN');
    try {
      fn();
      exec('COMMIT');
    } catch (error) {
      // SQLite may have rolled back already (some errors end the transaction themselves).
      if (inTransaction()) exec('ROLLBACK');
      throw error;
    }
  };
}
