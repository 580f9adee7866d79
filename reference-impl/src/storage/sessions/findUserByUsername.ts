import type { Queryable } from '../db.ts';

export interface UserCredential {
  id: string;
  account_id: string;
  password_hash: string;
  roles: string[];
}

/** The user signing in as `username`, or null. */
export async function findUserByUsername(db: Queryable, params: { username: string }): Promise<UserCredential | null> {
  const { rows } = await db.query<UserCredential>(
    'SELECT id, account_id, password_hash, roles FROM users WHERE username = $1',
    [params.username],
  );
  return rows[0] ?? null;
}
