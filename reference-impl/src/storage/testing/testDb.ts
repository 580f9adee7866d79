import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';
import type { Db } from '../db.ts';
import { runMigrations } from '../migrate.ts';
import { openPgliteDb } from '../pgliteDb.ts';
import { openPostgresDb } from '../postgresDb.ts';

// Test storage on both engines: PGlite in memory, and PostgreSQL with each Db in a fresh schema
// (selected through search_path, dropped afterwards). Test infrastructure, so it reads its own
// two variables: TEST_DATABASE_URL, and CI (with CI=true an unreachable PostgreSQL fails the run
// instead of being skipped).

export type Engine = 'pglite' | 'postgres';
export const ENGINES: readonly Engine[] = ['pglite', 'postgres'];

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const IN_CI = process.env.CI === 'true';

export interface TestDb {
  db: Db;
  engine: Engine;
  /** The PostgreSQL schema of this Db (undefined on PGlite). */
  schema: string | undefined;
  /** Closes the Db and drops its schema. */
  close(): Promise<void>;
}

/** Whether PostgreSQL answers at TEST_DATABASE_URL; probed once per test file. */
export const postgresProbe: { reachable: boolean; reason?: string } = await probePostgres();

async function probePostgres(): Promise<{ reachable: boolean; reason?: string }> {
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

/** A fresh Db on `engine`, migrated unless `migrate: false`. */
export async function openTestDb(engine: Engine, options: { migrate?: boolean } = {}): Promise<TestDb> {
  const migrate = options.migrate ?? true;
  if (engine === 'pglite') {
    const db = await openPgliteDb({ dataDir: ':memory:' });
    if (migrate) await runMigrations(db);
    return { db, engine, schema: undefined, close: () => db.close() };
  }
  const schema = `test_${randomBytes(6).toString('hex')}`;
  await withAdminClient((client) => client.query(`CREATE SCHEMA ${schema}`));
  let db: Db;
  try {
    db = await openPostgresDb({ connectionString: TEST_DATABASE_URL, searchPath: schema, max: 8 });
    if (migrate) await runMigrations(db);
  } catch (error) {
    await withAdminClient((client) => client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
    throw error;
  }
  return {
    db, engine, schema,
    async close() {
      await db.close();
      await withAdminClient((client) => client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
    },
  };
}

async function withAdminClient<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  client.on('error', () => {});
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export interface EngineContext {
  readonly engine: Engine;
  /** This block's Db; available inside tests and hooks. */
  readonly db: Db;
}

let warned = false;

/** Should the PostgreSQL run of a block be skipped? Only when unreachable and not in CI. */
export function skipPostgres(): boolean {
  const skip = !postgresProbe.reachable && !IN_CI;
  if (skip && !warned) {
    warned = true;
    console.warn(`PostgreSQL at ${TEST_DATABASE_URL} is unreachable (${postgresProbe.reason}); skipping the PostgreSQL runs. With CI=true they fail instead.`);
  }
  return skip;
}

/**
 * Registers `body` once per engine, as `title [pglite]` and `title [postgres]`, each with its own
 * fresh, migrated Db for the whole block.
 */
export function describeEachEngine(title: string, body: (context: EngineContext) => void, engines: readonly Engine[] = ENGINES): void {
  for (const engine of engines) {
    describe.skipIf(engine === 'postgres' && skipPostgres())(`${title} [${engine}]`, () => {
      let handle: TestDb | undefined;
      beforeAll(async () => { handle = await openTestDb(engine); });
      afterAll(async () => { await handle?.close(); });
      body({
        engine,
        get db(): Db {
          if (handle === undefined) throw new Error('the test Db is available inside tests and hooks only');
          return handle.db;
        },
      });
    });
  }
}
