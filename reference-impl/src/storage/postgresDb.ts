import { createHash } from 'node:crypto';
import pg from 'pg';
import type { Db, QueryResult, Transaction } from './db.ts';
import { startPostgresListener } from './postgresListener.ts';
import { toDbError } from './errors.ts';
import { parseJson } from '../../../spec/json.ts';
import { parseIsoTimestamptz } from './parseTimestamptz.ts';
import { TransactionGuard, affectedRowsOf } from './transactionGuard.ts';

export interface PostgresDbOptions {
  connectionString: string;
  /** Schema(s) for unqualified names, e.g. one fresh schema per test file. */
  searchPath?: string;
  /** Pool size. */
  max?: number;
}

/** PostgreSQL through a node-postgres pool; each transaction holds one client from BEGIN to COMMIT. */
export async function openPostgresDb(options: PostgresDbOptions): Promise<Db> {
  if (options.searchPath !== undefined && !/^[a-z_][a-z0-9_]*(,\s*[a-z_][a-z0-9_]*)*$/.test(options.searchPath)) {
    throw new Error(
      `searchPath must be a comma list of plain lower-case schema names (received: ${options.searchPath})`,
    );
  }
  const clientConfig: pg.ClientConfig = {
    connectionString: options.connectionString,
    types: TYPES,
    application_name: 'content-service',
    ...(options.searchPath === undefined ? {} : { options: `-c search_path=${options.searchPath}` }),
  };
  const pool = new pg.Pool({ ...clientConfig, max: options.max ?? 10 });
  const listeners = new Set<{ close(): Promise<void> }>();
  // An idle client losing its connection must not crash the process; the next query reports it.
  pool.on('error', () => {});
  const guard = new TransactionGuard();
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end();
    throw toDbError(error);
  }

  return {
    engine: 'postgres',
    query<R>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<R>> {
      guard.assertOutside('query');
      return runQuery<R>(pool, sql, params);
    },
    streamRows<R>(sql: string, params: readonly unknown[] = []): AsyncIterable<readonly R[]> {
      guard.assertOutside('streamRows');
      return streamQuery<R>(pool, sql, params);
    },
    async exec(sql: string): Promise<void> {
      guard.assertOutside('exec');
      await runExec(pool, sql);
    },
    async transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
      guard.assertOutside('transaction');
      const client = await pool.connect().catch((error: unknown) => {
        throw toDbError(error);
      });
      let broken: Error | undefined;
      // A checked-out client whose connection drops (pg_terminate_backend, a database restart)
      // emits 'error'; unheard, that would end the process. Heard, the client leaves the pool.
      const onConnectionError = (error: Error) => {
        broken ??= error;
      };
      client.on('error', onConnectionError);
      try {
        await client.query('BEGIN');
        const tx: Transaction = {
          query: <R>(sql: string, params: readonly unknown[] = []) => runQuery<R>(client, sql, params),
          exec: (sql: string) => runExec(client, sql),
        };
        const result = await guard.inside(() => fn(tx));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        try {
          await client.query('ROLLBACK');
        } catch (rollbackError) {
          broken = rollbackError as Error; // the connection is unusable: drop it from the pool
        }
        throw toDbError(error);
      } finally {
        client.off('error', onConnectionError);
        client.release(broken);
      }
    },
    async listen(channel, handlers) {
      const listener = await startPostgresListener({ clientConfig, channel, handlers });
      listeners.add(listener);
      return {
        close: async () => {
          listeners.delete(listener);
          await listener.close();
        },
      };
    },
    async close(): Promise<void> {
      await Promise.all([...listeners].map((listener) => listener.close()));
      await pool.end();
    },
  };
}

async function runQuery<R>(
  target: pg.Pool | pg.PoolClient,
  sql: string,
  params: readonly unknown[],
): Promise<QueryResult<R>> {
  try {
    // With parameters, a named statement: each connection parses it once, and PostgreSQL reuses
    // its plan where a generic plan is as cheap as a custom one (not for the lists: their LIMIT is
    // a parameter, so they are planned on each run, which is why their SQL stays simple). A text
    // without parameters may hold several statements: not named.
    const result =
      params.length === 0
        ? await target.query(sql)
        : await target.query({ name: statementName(sql), text: sql, values: [...params] });
    return { rows: result.rows as R[], affectedRows: affectedRowsOf(result.command, result.rowCount) };
  } catch (error) {
    throw toDbError(error);
  }
}

/**
 * One query on a connection of its own, its rows handed on as node-postgres parses them from each
 * packet, instead of once the last has arrived. The connection goes back to the pool as soon as the
 * query is over, not when the reader is done: a slow client holds only its rows.
 */
async function* streamQuery<R>(pool: pg.Pool, sql: string, params: readonly unknown[]): AsyncGenerator<readonly R[]> {
  const client = await pool.connect().catch((error: unknown) => {
    throw toDbError(error);
  });
  let rows: R[] = [];
  let ended = false;
  let failure: { error: unknown } | undefined;
  let broken: Error | undefined;
  let wake = () => {};
  const waitForNews = () => new Promise<void>((resolve) => (wake = resolve));
  // A dropped connection emits 'error' on the client, and the query may never end.
  const onConnectionError = (error: Error) => {
    broken ??= error;
    wake();
  };
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    client.off('error', onConnectionError);
    // After a failure the connection may be going down (its 'error' can come later): not reused.
    client.release(broken ?? failure !== undefined);
  };
  client.on('error', onConnectionError);
  const query = new pg.Query(
    params.length === 0 ? { text: sql } : { name: statementName(sql), text: sql, values: [...params] },
  );
  query.on('row', (row: R) => {
    rows.push(row);
    wake();
  });
  query.on('end', () => {
    ended = true;
    release();
    wake();
  });
  query.on('error', (error: unknown) => {
    failure = { error };
    ended = true;
    release();
    wake();
  });
  client.query(query);
  try {
    for (;;) {
      if (rows.length === 0 && !ended && broken === undefined) await waitForNews();
      if (failure !== undefined) throw toDbError(failure.error);
      if (broken !== undefined) throw toDbError(broken);
      if (rows.length === 0) return;
      const batch = rows;
      rows = [];
      yield batch;
    }
  } finally {
    // Stopped early: the rows still on their way are dropped, and the connection goes back only
    // once the query is over.
    while (!ended && broken === undefined) {
      rows = [];
      await waitForNews();
    }
    release();
  }
}

// The SQL texts come from a fixed set of query modules (values are always parameters), so the
// names stay few; one name per text, so a name never stands for two texts.
const statementNames = new Map<string, string>();

function statementName(sql: string): string {
  let name = statementNames.get(sql);
  if (name === undefined) {
    name = `q_${createHash('sha256').update(sql).digest('hex').slice(0, 24)}`;
    statementNames.set(sql, name);
  }
  return name;
}

async function runExec(target: pg.Pool | pg.PoolClient, sql: string): Promise<void> {
  try {
    await target.query(sql); // no parameters: the simple protocol, which allows several statements
  } catch (error) {
    throw toDbError(error);
  }
}

// Parse values as PGlite does, so both engines hand callers the same JavaScript values.
const INT8 = 20,
  JSON_OID = 114,
  JSONB = 3802,
  INT8_ARRAY = 1016,
  DATE = 1082,
  TIMESTAMP = 1114,
  TIMESTAMPTZ = 1184;

function parseInt8(value: string): number | bigint {
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : BigInt(value);
}

const TYPES = {
  getTypeParser(oid: number, format?: 'text' | 'binary'): (value: string) => unknown {
    const fallback = pg.types.getTypeParser(oid, format ?? 'text') as (value: string) => unknown;
    if (format === 'binary') return fallback;
    switch (oid) {
      case INT8:
        return parseInt8;
      case INT8_ARRAY:
        return (value) => (fallback(value) as (string | null)[]).map((v) => (v === null ? null : parseInt8(v)));
      // Without a zone these are read as UTC (node-postgres would use the process's local zone).
      case DATE:
        return (value) => (/^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00Z`) : value);
      case TIMESTAMP:
        return (value) =>
          /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d+)?$/.test(value) ? new Date(`${value.replace(' ', 'T')}Z`) : value;
      // The same instants as node-postgres' parser, faster (parseTimestamptz.ts).
      case TIMESTAMPTZ:
        return (value) => parseIsoTimestamptz(value) ?? fallback(value);
      // JSON.parse can lose escaped member names (spec/json.ts).
      case JSON_OID:
      case JSONB:
        return parseJson;
      default:
        return fallback;
    }
  },
} as unknown as pg.CustomTypesConfig;
