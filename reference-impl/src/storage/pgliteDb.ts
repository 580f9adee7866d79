import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite, types, type Results, type Transaction as PgliteTransaction } from '@electric-sql/pglite';
import { parseJson } from '../../../spec/json.ts';
import type { Db, QueryResult, Transaction } from './db.ts';
import { toDbError } from './errors.ts';
import { Mutex } from './mutex.ts';
import { TransactionGuard, affectedRowsOf } from './transactionGuard.ts';

export interface PgliteDbOptions {
  /** `:memory:`, or a directory under which the database lives in `pglite/`. */
  dataDir: string;
}

/**
 * Embedded PostgreSQL (PGlite). It has one connection: a mutex makes every statement and every
 * transaction take turns, so two callers' transactions never interleave on it.
 */
export async function openPgliteDb(options: PgliteDbOptions): Promise<Db> {
  // JSON.parse can lose escaped member names (spec/json.ts).
  const parsers = { [types.JSON]: parseJson, [types.JSONB]: parseJson };
  let pglite: PGlite;
  if (options.dataDir === ':memory:') {
    pglite = await PGlite.create({ parsers });
  } else {
    const directory = join(options.dataDir, 'pglite');
    await mkdir(directory, { recursive: true });
    pglite = await PGlite.create({ dataDir: directory, parsers });
  }
  const mutex = new Mutex();
  const guard = new TransactionGuard();

  return {
    engine: 'pglite',
    async query<R>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<R>> {
      guard.assertOutside('query');
      return mutex.run(() => runQuery<R>(pglite, sql, params));
    },
    async *streamRows<R>(sql: string, params: readonly unknown[] = []): AsyncGenerator<readonly R[]> {
      guard.assertOutside('streamRows');
      yield (await mutex.run(() => runQuery<R>(pglite, sql, params))).rows;
    },
    async exec(sql: string): Promise<void> {
      guard.assertOutside('exec');
      await mutex.run(() => runExec(pglite, sql));
    },
    async transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
      guard.assertOutside('transaction');
      return mutex.run(async () => {
        try {
          return await pglite.transaction((ptx) => guard.inside(() => fn(wrapTransaction(ptx))));
        } catch (error) {
          throw toDbError(error);
        }
      });
    },
    async listen(channel, handlers) {
      // One process owns the data directory, so no notification is ever missed: always listening.
      const unlisten = await mutex.run(() => pglite.listen(channel, handlers.onNotify));
      handlers.onState?.(true);
      return { close: () => mutex.run(() => unlisten()) };
    },
    async close(): Promise<void> {
      await mutex.run(() => pglite.close());
    },
  };
}

function wrapTransaction(ptx: PgliteTransaction): Transaction {
  return {
    query: <R>(sql: string, params: readonly unknown[] = []) => runQuery<R>(ptx, sql, params),
    exec: (sql: string) => runExec(ptx, sql),
  };
}

async function runQuery<R>(
  target: PGlite | PgliteTransaction,
  sql: string,
  params: readonly unknown[],
): Promise<QueryResult<R>> {
  let result: Results<R>;
  try {
    result = await target.query<R>(sql, [...params]);
  } catch (error) {
    throw toDbError(error);
  }
  return { rows: result.rows, affectedRows: affectedRowsOf(result.command, result.rowCount ?? result.affectedRows) };
}

async function runExec(target: PGlite | PgliteTransaction, sql: string): Promise<void> {
  try {
    await target.exec(sql);
  } catch (error) {
    throw toDbError(error);
  }
}
