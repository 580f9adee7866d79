import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMigrations } from './migrate.ts';
import { openDb } from './openDb.ts';
import { TEST_DATABASE_URL, skipPostgres } from '../../test/support/storage/testDb.ts';

describe('openDb', () => {
  it('when DATABASE_URL is absent, then PGlite keeps its data in DATA_DIR/pglite across restarts', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'content-data-'));
    try {
      const first = await openDb({ databaseUrl: undefined, dataDir });
      expect(first.engine).toBe('pglite');
      expect(await runMigrations(first)).toContain('001_core.sql');
      await first.query(`INSERT INTO accounts (id, name) VALUES ('acme', 'Acme')`);
      await first.close();
      expect((await stat(join(dataDir, 'pglite'))).isDirectory()).toBe(true);

      const second = await openDb({ databaseUrl: undefined, dataDir });
      expect(await runMigrations(second)).toEqual([]);
      expect((await second.query(`SELECT name FROM accounts WHERE id = 'acme'`)).rows).toEqual([{ name: 'Acme' }]);
      await second.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it.skipIf(skipPostgres())('when DATABASE_URL is set, then PostgreSQL is used', async () => {
    const db = await openDb({ databaseUrl: TEST_DATABASE_URL, dataDir: ':memory:' });
    try {
      expect(db.engine).toBe('postgres');
      expect((await db.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await db.close();
    }
  });

  it("when PostgreSQL cannot be reached, then opening fails at once with the driver's reason", async () => {
    await expect(openDb({ databaseUrl: 'postgres://postgres@127.0.0.1:1/none', dataDir: ':memory:' })).rejects.toThrow(
      /ECONNREFUSED/,
    );
  });
});
