import { mkdtemp, rm, writeFile, rename } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresDb } from './postgresDb.ts';
import { listMigrations, runMigrations, MIGRATIONS_DIRECTORY } from './migrate.ts';
import { ENGINES, TEST_DATABASE_URL, openTestDb, skipPostgres } from '../../test/support/storage/testDb.ts';

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'migrations-'));
  await writeFile(join(directory, '002_second.sql'), `INSERT INTO log (step) VALUES ('second');`);
  await writeFile(
    join(directory, '001_first.sql'),
    `CREATE TABLE log (step text NOT NULL, at timestamptz DEFAULT clock_timestamp());\nINSERT INTO log (step) VALUES ('first');`,
  );
  await writeFile(join(directory, '010_tenth.sql'), `INSERT INTO log (step) VALUES ('tenth');`);
  await writeFile(join(directory, 'README.md'), 'not a migration');
  await writeFile(join(directory, '3_unnumbered.sql'), 'SELECT broken');
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('listMigrations', () => {
  it('when listing, then only NNN_name.sql files count, in number order', async () => {
    expect((await listMigrations(directory)).map((m) => [m.version, m.name])).toEqual([
      [1, '001_first.sql'],
      [2, '002_second.sql'],
      [10, '010_tenth.sql'],
    ]);
  });

  it('when two files share a number, then it is an error naming both', async () => {
    const clash = await mkdtemp(join(tmpdir(), 'migrations-'));
    await writeFile(join(clash, '002_a.sql'), '');
    await writeFile(join(clash, '002_b.sql'), '');
    await expect(listMigrations(clash)).rejects.toThrow('Two migrations share number 2: 002_a.sql and 002_b.sql');
    await rm(clash, { recursive: true });
  });

  it('when listing the service migrations, then 001_core.sql comes first', async () => {
    expect((await listMigrations(MIGRATIONS_DIRECTORY))[0]?.name).toBe('001_core.sql');
  });
});

for (const engine of ENGINES) {
  describe.skipIf(engine === 'postgres' && skipPostgres())(`runMigrations [${engine}]`, () => {
    it('when run twice, then each file runs once, in order, and the second run applies nothing', async () => {
      const handle = await openTestDb(engine, { migrate: false });
      try {
        expect(await runMigrations(handle.db, { directory })).toEqual([
          '001_first.sql',
          '002_second.sql',
          '010_tenth.sql',
        ]);
        expect(await runMigrations(handle.db, { directory })).toEqual([]);
        const { rows } = await handle.db.query<{ step: string }>('SELECT step FROM log ORDER BY at');
        expect(rows.map((r) => r.step)).toEqual(['first', 'second', 'tenth']);
        const recorded = await handle.db.query<{ version: number; name: string }>(
          'SELECT version, name FROM schema_migrations ORDER BY version',
        );
        expect(recorded.rows).toEqual([
          { version: 1, name: '001_first.sql' },
          { version: 2, name: '002_second.sql' },
          { version: 10, name: '010_tenth.sql' },
        ]);
      } finally {
        await handle.close();
      }
    });

    it('when a migration fails, then it is not recorded and the earlier ones stay applied', async () => {
      const handle = await openTestDb(engine, { migrate: false });
      const broken = await mkdtemp(join(tmpdir(), 'migrations-'));
      try {
        await writeFile(join(broken, '001_ok.sql'), 'CREATE TABLE ok (x int);');
        await writeFile(join(broken, '002_bad.sql'), 'CREATE TABLE half (x int); SELECT * FROM missing_table;');
        await expect(runMigrations(handle.db, { directory: broken })).rejects.toThrow(/missing_table/);
        const { rows } = await handle.db.query<{ name: string }>('SELECT name FROM schema_migrations');
        expect(rows.map((r) => r.name)).toEqual(['001_ok.sql']);
        const half = await handle.db.query(`SELECT to_regclass('half') AS t`);
        expect(half.rows[0]).toEqual({ t: null });
      } finally {
        await handle.close();
        await rm(broken, { recursive: true, force: true });
      }
    });

    it('when an applied file was renamed, then the run stops with an error naming both names', async () => {
      const handle = await openTestDb(engine, { migrate: false });
      const renamed = await mkdtemp(join(tmpdir(), 'migrations-'));
      try {
        await writeFile(join(renamed, '001_old.sql'), 'SELECT 1;');
        await runMigrations(handle.db, { directory: renamed });
        await rename(join(renamed, '001_old.sql'), join(renamed, '001_new.sql'));
        await expect(runMigrations(handle.db, { directory: renamed })).rejects.toThrow(
          'Migration 1 was applied as 001_old.sql but the file is now 001_new.sql',
        );
      } finally {
        await handle.close();
        await rm(renamed, { recursive: true, force: true });
      }
    });

    it('when the service migrations run, then the core tables exist', async () => {
      const handle = await openTestDb(engine);
      try {
        const { rows } = await handle.db.query<{ t: string }>(
          `SELECT table_name AS t FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1`,
        );
        expect(rows.map((r) => r.t)).toEqual(
          expect.arrayContaining([
            'accounts',
            'api_tokens',
            'item_stamp',
            'items',
            'organisations',
            'schema_migrations',
          ]),
        );
      } finally {
        await handle.close();
      }
    });
  });
}

describe.skipIf(skipPostgres())('runMigrations on PostgreSQL with several instances starting at once', () => {
  it('when five instances migrate one schema at the same moment, then every file is applied exactly once', async () => {
    const handle = await openTestDb('postgres', { migrate: false });
    const instances = await Promise.all(
      Array.from({ length: 5 }, () =>
        openPostgresDb({ connectionString: TEST_DATABASE_URL, searchPath: handle.schema!, max: 2 }),
      ),
    );
    try {
      const results = await Promise.all(instances.map((db) => runMigrations(db, { directory })));
      expect(results.flat().sort()).toEqual(['001_first.sql', '002_second.sql', '010_tenth.sql']);
      const { rows } = await handle.db.query<{ step: string }>('SELECT step FROM log ORDER BY at');
      expect(rows.map((r) => r.step)).toEqual(['first', 'second', 'tenth']);
    } finally {
      await Promise.all(instances.map((db) => db.close()));
      await handle.close();
    }
  });
});
