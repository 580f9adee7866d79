// The store a bench works in: PGlite (in memory or in a temporary directory) or a fresh schema on a
// PostgreSQL server, dropped again at close. Migrations are the caller's (the bench times them).

import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db } from '../../reference-impl/src/storage/db.ts';
import { openPgliteDb } from '../../reference-impl/src/storage/pgliteDb.ts';
import { openPostgresDb } from '../../reference-impl/src/storage/postgresDb.ts';
import { withPostgresClient } from '../../reference-impl/test/support/storage/withPostgresClient.ts';
import type { Engine } from './protocol.ts';

/** The PostgreSQL server of the benches: $BENCH_DATABASE_URL, $TEST_DATABASE_URL or the local test server. */
export function benchDatabaseUrl(): string {
  return process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
}

export interface BenchDbOptions {
  engine: Engine;
  /** PostgreSQL server; default benchDatabaseUrl(). */
  databaseUrl?: string;
  /** PGlite: in memory (default) or in a temporary directory. */
  pgliteStorage?: 'memory' | 'disk';
  /** PostgreSQL connections (default 10). */
  poolSize?: number;
}

export interface BenchDb {
  db: Db;
  /** Where the data lives, for the report: `in memory`, a directory, or `schema bench_…`. */
  location: string;
  /** Closes the store and removes it (the temporary directory, the schema). */
  close(): Promise<void>;
}

export async function openBenchDb(options: BenchDbOptions): Promise<BenchDb> {
  if (options.engine === 'pglite') {
    const dir = options.pgliteStorage === 'disk' ? await mkdtemp(join(tmpdir(), 'bench-pglite-')) : ':memory:';
    const db = await openPgliteDb({ dataDir: dir });
    return {
      db,
      location: dir === ':memory:' ? 'in memory' : `${dir}/pglite`,
      close: async () => {
        await db.close();
        if (dir !== ':memory:') await rm(dir, { recursive: true, force: true });
      },
    };
  }
  const url = options.databaseUrl ?? benchDatabaseUrl();
  const schema = `bench_${randomBytes(5).toString('hex')}`;
  const drop = () => withPostgresClient(url, (client) => client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
  await withPostgresClient(url, (client) => client.query(`CREATE SCHEMA ${schema}`));
  let db: Db;
  try {
    db = await openPostgresDb({ connectionString: url, searchPath: schema, max: options.poolSize ?? 10 });
  } catch (error) {
    await drop();
    throw error;
  }
  return {
    db,
    location: `schema ${schema}`,
    close: async () => {
      await db.close();
      await drop();
    },
  };
}
