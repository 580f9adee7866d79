import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe } from 'vitest';
import type { Db } from '../../../src/storage/db.ts';
import { runMigrations } from '../../../src/storage/migrate.ts';
import { openPgliteDb } from '../../../src/storage/pgliteDb.ts';
import { openPostgresDb } from '../../../src/storage/postgresDb.ts';
import { skipPostgres, TEST_DATABASE_URL } from './postgresProbe.ts';
import { withPostgresClient } from './withPostgresClient.ts';

export { postgresProbe, skipPostgres, TEST_DATABASE_URL } from './postgresProbe.ts';

// Test storage on both engines: PGlite in memory, and PostgreSQL at TEST_DATABASE_URL with each
// Db in a fresh schema (selected through search_path, dropped afterwards); see postgresProbe.ts
// for when the PostgreSQL runs are skipped.

export type Engine = 'pglite' | 'postgres';
export const ENGINES: readonly Engine[] = ['pglite', 'postgres'];

export interface TestDb {
  db: Db;
  engine: Engine;
  /** The PostgreSQL schema of this Db (undefined on PGlite). */
  schema: string | undefined;
  /** Closes the Db and drops its schema. */
  close(): Promise<void>;
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
  await withPostgresClient(TEST_DATABASE_URL, (client) => client.query(`CREATE SCHEMA ${schema}`));
  let db: Db;
  try {
    db = await openPostgresDb({ connectionString: TEST_DATABASE_URL, searchPath: schema, max: 8 });
    if (migrate) await runMigrations(db);
  } catch (error) {
    await withPostgresClient(TEST_DATABASE_URL, (client) => client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
    throw error;
  }
  return {
    db,
    engine,
    schema,
    async close() {
      await db.close();
      await withPostgresClient(TEST_DATABASE_URL, (client) => client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
    },
  };
}

export interface EngineContext {
  readonly engine: Engine;
  /** This block's Db; available inside tests and hooks. */
  readonly db: Db;
}

/**
 * Registers `body` once per engine, as `title [pglite]` and `title [postgres]`, each with its own
 * fresh, migrated Db for the whole block.
 */
export function describeEachEngine(
  title: string,
  body: (context: EngineContext) => void,
  engines: readonly Engine[] = ENGINES,
): void {
  for (const engine of engines) {
    describe.skipIf(engine === 'postgres' && skipPostgres())(`${title} [${engine}]`, () => {
      let handle: TestDb | undefined;
      beforeAll(async () => {
        handle = await openTestDb(engine);
      });
      afterAll(async () => {
        await handle?.close();
      });
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
