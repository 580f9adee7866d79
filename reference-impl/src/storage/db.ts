// The one storage interface every query module receives. Implemented over PGlite (embedded,
// the default) and node-postgres (`DATABASE_URL`), with the same SQL on both.
//
// Both engines return the same JavaScript values: timestamptz/timestamp/date as Date (UTC),
// int8 as number (bigint beyond 2^53), numeric as string, json/jsonb parsed, arrays as arrays.
// Driver errors carrying a SQLSTATE are rethrown as `DbError` (see ./errors.ts), a unique
// violation (23505) as `UniqueViolationError` with the constraint name.

export interface QueryResult<R> {
  rows: R[];
  /** Rows changed by INSERT/UPDATE/DELETE, when the engine reports it. */
  affectedRows?: number;
}

export interface Queryable {
  query<R = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<R>>;
}

/** A SELECT's rows as they arrive, so that a caller can work on the first while the rest are on their way. */
export interface RowStreamer {
  /**
   * The rows of one SELECT, in order, in batches: each batch holds the rows received since the
   * caller last asked (PGlite, which has no transfer, gives them all at once). Stopping early is
   * allowed; the connection is reused only once the query has ended.
   */
  streamRows<R = Record<string, unknown>>(sql: string, params?: readonly unknown[]): AsyncIterable<readonly R[]>;
}

/** A Queryable that can also run a script of several statements without parameters (migrations). */
export interface ScriptRunner {
  exec(sql: string): Promise<void>;
}

/** What `transaction` hands its callback: queries and scripts inside that one transaction. */
export type Transaction = Queryable & ScriptRunner;

export interface Db extends Queryable, ScriptRunner, RowStreamer {
  readonly engine: 'pglite' | 'postgres';
  /**
   * Runs `fn` in one transaction: committed when it resolves, rolled back when it throws.
   * Inside `fn` use only `tx`: calling this Db's `query`, `exec` or `transaction` from inside
   * throws (on PGlite it would wait forever for itself; on PostgreSQL it would run outside the
   * transaction and could wait on the transaction's own locks).
   */
  transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T>;
  /**
   * Hears NOTIFY on `channel` (each after its transaction committed). `onState(false)`: from now
   * on notifications may be missed (the listening connection dropped); `onState(true)`: heard
   * again, after a gap the caller must treat as "anything may have changed". Resolves listening.
   */
  listen(channel: string, handlers: NotificationHandlers): Promise<Listener>;
  close(): Promise<void>;
}

export interface NotificationHandlers {
  onNotify(payload: string): void;
  onState?(listening: boolean): void;
}

export interface Listener {
  close(): Promise<void>;
}
