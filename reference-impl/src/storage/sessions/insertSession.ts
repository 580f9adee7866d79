import type { Queryable } from '../db.ts';

export interface InsertSessionParams {
  id: string;
  userId: string;
  refreshTokenHash: string;
  refreshExpires: Date;
  created: Date;
}

export async function insertSession(db: Queryable, params: InsertSessionParams): Promise<void> {
  await db.query(
    `INSERT INTO sessions (id, user_id, refresh_token_hash, refresh_expires, created)
     VALUES ($1, $2, $3, $4, $5)`,
    [params.id, params.userId, params.refreshTokenHash, params.refreshExpires, params.created],
  );
}
