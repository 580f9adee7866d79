import type { Queryable } from '../db.ts';

export type RevokeReason = 'logout' | 'refresh_reuse';

/** Revokes a session (its access and refresh tokens). False when it was already revoked or is unknown. */
export async function revokeSession(
  db: Queryable,
  params: { sessionId: string; reason: RevokeReason; now: Date },
): Promise<boolean> {
  const { rows } = await db.query<{ id: string }>(
    `UPDATE sessions SET revoked = $2, revoked_reason = $3
      WHERE id = $1 AND revoked IS NULL
      RETURNING id`,
    [params.sessionId, params.now, params.reason],
  );
  return rows.length === 1;
}
