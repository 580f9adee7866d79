// One fresh PostgreSQL database per test file, shared by every instance the file starts (as a
// deployment shares one), dropped afterwards with whatever connections are still open.

import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Db } from '../../../src/storage/db.ts';
import { openPostgresDb } from '../../../src/storage/postgresDb.ts';
import { TEST_DATABASE_URL } from '../storage/testDb.ts';

export interface ScratchDatabase {
  readonly name: string;
  /** DATABASE_URL for the instances. */
  readonly url: string;
  /** A small pool of the test's own, for fixtures and checks (opened on first use). */
  db(): Promise<Db>;
  /** Runs `sql` on a fresh connection to the server's maintenance database `test`. */
  admin<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Closes the test's pool and drops the database, ending every connection to it. */
  drop(): Promise<void>;
}

export async function createScratchDatabase(prefix = 'scaleout'): Promise<ScratchDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  let db: Db | undefined;
  return {
    name,
    url: url.toString(),
    async db() {
      db ??= await openPostgresDb({ connectionString: url.toString(), max: 4 });
      return db;
    },
    admin: adminQuery,
    async drop() {
      await db?.close().catch(() => {});
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

async function adminQuery<T>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  client.on('error', () => {});
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end().catch(() => {});
  }
}
