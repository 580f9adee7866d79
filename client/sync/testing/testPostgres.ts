// PostgreSQL for the client's own tests, with the reference service's tests' probe and skip rule
// (test infrastructure only: the client's library code imports only generated/). Each test file
// gets a schema of its own, so files running in parallel never share a table.

import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { TEST_DATABASE_URL } from '../../../reference-impl/src/storage/testing/postgresProbe.ts';
import { withPostgresClient } from '../../../reference-impl/src/storage/testing/withPostgresClient.ts';

export { skipPostgres, TEST_DATABASE_URL } from '../../../reference-impl/src/storage/testing/postgresProbe.ts';

export interface TestSchema {
  name: string;
  /** TEST_DATABASE_URL with `search_path` set to this schema: unqualified tables land in it. */
  url: string;
  /** Runs one statement on a connection of its own, in this schema (for checks). */
  query<R extends pg.QueryResultRow = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<R[]>;
  /** Drops the schema and everything in it. */
  drop(): Promise<void>;
}

/** Creates a fresh schema `<prefix>_<random>` in the test database. */
export async function createTestSchema(prefix = 'client_test'): Promise<TestSchema> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const url = new URL(TEST_DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${name}`);
  await runOnce(TEST_DATABASE_URL, `CREATE SCHEMA ${name}`);
  return {
    name,
    url: url.href,
    query: (sql, params) => runOnce(url.href, sql, params),
    drop: async () => void (await runOnce(TEST_DATABASE_URL, `DROP SCHEMA IF EXISTS ${name} CASCADE`)),
  };
}

async function runOnce<R extends pg.QueryResultRow>(connectionString: string, sql: string, params?: unknown[]): Promise<R[]> {
  return withPostgresClient(connectionString, async (client) => (await client.query<R>(sql, params)).rows);
}
