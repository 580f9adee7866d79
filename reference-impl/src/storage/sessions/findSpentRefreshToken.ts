import type { Queryable } from '../db.ts';

/** The session a refresh token belonged to when it was already exchanged; null otherwise. */
export async function findSpentRefreshToken(
  db: Queryable,
  params: { tokenHash: string },
): Promise<{ session_id: string } | null> {
  const { rows } = await db.query<{ session_id: string }>(
    'SELECT session_id FROM spent_refresh_tokens WHERE token_hash = $1',
    [params.tokenHash],
  );
  return rows[0] ?? null;
}
