import type { Queryable } from '../db.ts';

/**
 * Deletes records of refresh tokens spent before `before` (of sessions still alive). Pass a time
 * at least a refresh token's lifetime ago: a spent token that would have expired by now anyway
 * proves nothing when it comes back (reuse detection, DEC-AUTH-012). Returns how many.
 */
export async function pruneSpentRefreshTokens(db: Queryable, params: { before: Date }): Promise<number> {
  const { rows } = await db.query('DELETE FROM spent_refresh_tokens WHERE spent < $1 RETURNING token_hash', [
    params.before,
  ]);
  return rows.length;
}
