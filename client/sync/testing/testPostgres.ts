// PostgreSQL for the client's own tests, the way the reference service's tests use it
// (reference-impl/test/support/storage/testDb.ts, not imported: client/ imports only generated/).
// Test infrastructure, so it reads its own two variables: TEST_DATABASE_URL (default the local
// server) and CI (with CI=true an unreachable PostgreSQL fails the run instead of being skipped).
// Each test file gets a schema of its own, so files running in parallel never share a table.

import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const IN_CI = process.env.CI === 'true';

/** Whether PostgreSQL answers at TEST_DATABASE_URL; probed once per test file. */
export const postgresProbe: { reachable: boolean; reason?: string } = await probe();

async function probe(): Promise<{ reachable: boolean; reason?: string }> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 3000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
    return { reachable: true };
  } catch (error) {
    return { reachable: false, reason: (error as Error).message };
  } finally {
    await client.end().catch(() => {});
  }
}

let warned = false;

/** Should the PostgreSQL tests be skipped? Only when unreachable and CI is not `true`. */
export function skipPostgres(): boolean {
  const skip = !postgresProbe.reachable && !IN_CI;
  if (skip && !warned) {
    warned = true;
    console.warn(
      `PostgreSQL at ${TEST_DATABASE_URL} is unreachable (${postgresProbe.reason}); skipping the PostgreSQL tests. With CI=true they fail instead.`,
    );
  }
  return skip;
}

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

async function runOnce<R extends pg.QueryResultRow>(
  connectionString: string,
  sql: string,
  params?: unknown[],
): Promise<R[]> {
  const client = new pg.Client({ connectionString });
  client.on('error', () => {});
  await client.connect();
  try {
    return (await client.query<R>(sql, params)).rows;
  } finally {
    await client.end();
  }
}
