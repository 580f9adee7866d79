import type { Config } from '../config.ts';
import type { Db } from './db.ts';
import { openPgliteDb } from './pgliteDb.ts';
import { openPostgresDb } from './postgresDb.ts';

/** PostgreSQL when `DATABASE_URL` is set, else embedded PGlite in `DATA_DIR/pglite` (or in memory). */
export function openDb(config: Pick<Config, 'databaseUrl' | 'dataDir'>): Promise<Db> {
  return config.databaseUrl !== undefined
    ? openPostgresDb({ connectionString: config.databaseUrl })
    : openPgliteDb({ dataDir: config.dataDir });
}
