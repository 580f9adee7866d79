import type { Queryable } from '../db.ts';

export interface InsertUserParams {
  id: string;
  accountId: string;
  username: string;
  passwordHash: string;
  roles: readonly string[];
  /** Made by the demo seed, so deleted by a start with seeding off (migration 017). Default: false. */
  demo?: boolean;
}

/** Adds a user; false (and nothing written) when the username is taken. */
export async function insertUser(db: Queryable, params: InsertUserParams): Promise<boolean> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO users (id, account_id, username, password_hash, roles, demo)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (username) DO NOTHING
     RETURNING id`,
    [params.id, params.accountId, params.username, params.passwordHash, [...params.roles], params.demo ?? false],
  );
  return rows.length === 1;
}
