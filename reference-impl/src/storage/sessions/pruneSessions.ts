import type { Queryable } from '../db.ts';

/**
 * Deletes sessions whose refresh token expired, or that were revoked, before `before`, with their
 * spent refresh tokens (ON DELETE CASCADE). Such a session can do nothing any more: its access
 * token lives an hour, and an unknown session is refused like a revoked one. Returns how many.
 */
export async function pruneSessions(db: Queryable, params: { before: Date }): Promise<number> {
  const { rows } = await db.query('DELETE FROM sessions WHERE refresh_expires < $1 OR revoked < $1 RETURNING id', [
    params.before,
  ]);
  return rows.length;
}
