import type { Queryable } from '../db.ts';

export interface InsertUserParams {
  id: string;
  accountId: string;
  username: string;
  passwordHash: string;
  roles: readonly string[];
}

/** Adds a user; false (and nothing written) when the username is taken. */
export async function insertUser(db: Queryable, params: InsertUserParams): Promise<boolean> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO users (id, account_id, username, password_hash, roles)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (username) DO NOTHING
     RETURNING id`,
    [params.id, params.accountId, params.username, params.passwordHash, [...params.roles]],
  );
  return rows.length === 1;
}
