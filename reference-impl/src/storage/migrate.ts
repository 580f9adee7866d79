import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from './db.ts';

export const MIGRATIONS_DIRECTORY = fileURLToPath(new URL('./migrations/', import.meta.url));

// First key of the two-key advisory lock; the second is the schema, so instances sharing one
// schema queue up while test files in their own schemas migrate side by side.
const MIGRATION_LOCK = 0x6d696772; // 'migr'

const MIGRATION_FILE = /^(\d{3})_[A-Za-z0-9_-]+\.sql$/;

export interface Migration {
  version: number;
  name: string;
  path: string;
}

/** The `NNN_name.sql` files of `directory`, in version order. Two files with one number is an error. */
export async function listMigrations(directory: string = MIGRATIONS_DIRECTORY): Promise<Migration[]> {
  const migrations = (await readdir(directory))
    .map((name) => ({ name, match: MIGRATION_FILE.exec(name) }))
    .filter((entry): entry is { name: string; match: RegExpExecArray } => entry.match !== null)
    .map(({ name, match }) => ({ version: Number(match[1]), name, path: join(directory, name) }))
    .sort((a, b) => a.version - b.version);
  for (let i = 1; i < migrations.length; i++) {
    if (migrations[i]!.version === migrations[i - 1]!.version) {
      throw new Error(
        `Two migrations share number ${migrations[i]!.version}: ${migrations[i - 1]!.name} and ${migrations[i]!.name}`,
      );
    }
  }
  return migrations;
}

/**
 * Applies every migration not yet recorded in `schema_migrations`, in order, each in its own
 * transaction under an advisory lock, so that several instances starting at once apply each file
 * exactly once. Returns the names applied now.
 */
export async function runMigrations(db: Db, options: { directory?: string } = {}): Promise<string[]> {
  const applied: string[] = [];
  for (const migration of await listMigrations(options.directory)) {
    const sql = await readFile(migration.path, 'utf8');
    const ran = await db.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock($1, hashtext(coalesce(current_schema(), '')))`, [MIGRATION_LOCK]);
      await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
        version integer PRIMARY KEY,
        name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
      const { rows } = await tx.query<{ name: string }>('SELECT name FROM schema_migrations WHERE version = $1', [
        migration.version,
      ]);
      if (rows[0] !== undefined) {
        if (rows[0].name !== migration.name) {
          throw new Error(
            `Migration ${migration.version} was applied as ${rows[0].name} but the file is now ${migration.name}`,
          );
        }
        return false;
      }
      await tx.exec(sql);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
      return true;
    });
    if (ran) applied.push(migration.name);
  }
  return applied;
}
