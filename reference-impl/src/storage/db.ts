// The one storage interface every query module receives. Implemented over PGlite (embedded,
// the default) and node-postgres (`DATABASE_URL`), with the same SQL on both.

export interface QueryResult<R> {
  rows: R[];
  /** Rows changed by INSERT/UPDATE/DELETE, when the engine reports it. */
  affectedRows?: number;
}

export interface Queryable {
  query<R = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<R>>;
}

export interface Db extends Queryable {
  readonly engine: 'pglite' | 'postgres';
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
