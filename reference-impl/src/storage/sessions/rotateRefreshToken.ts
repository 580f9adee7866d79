import type { Queryable } from '../db.ts';

export interface RotateRefreshTokenParams {
  oldHash: string;
  newHash: string;
  newExpires: Date;
  now: Date;
}

/**
 * Swaps the session's current refresh token for a new one and records the old one as spent, when
 * `oldHash` is the current token of a live session. Returns the session and user, or null when it
 * is not (unknown, already spent, expired or revoked). The UPDATE's row lock makes two concurrent
 * refreshes with one token resolve to one winner; the loser then sees the token as spent.
 * Run inside a transaction, so the swap and the spent record commit together.
 */
export async function rotateRefreshToken(
  tx: Queryable,
  params: RotateRefreshTokenParams,
): Promise<{ session_id: string; user_id: string } | null> {
  const { rows } = await tx.query<{ session_id: string; user_id: string }>(
    `UPDATE sessions
        SET refresh_token_hash = $2, refresh_expires = $3, refreshed = $4, refresh_count = refresh_count + 1
      WHERE refresh_token_hash = $1 AND revoked IS NULL AND refresh_expires > $4
      RETURNING id AS session_id, user_id`,
    [params.oldHash, params.newHash, params.newExpires, params.now],
  );
  const row = rows[0];
  if (row === undefined) return null;
  await tx.query('INSERT INTO spent_refresh_tokens (token_hash, session_id, spent) VALUES ($1, $2, $3)', [
    params.oldHash,
    row.session_id,
    params.now,
  ]);
  return row;
}
