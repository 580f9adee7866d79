import type { Queryable } from '../db.ts';

export interface SessionPrincipalRow {
  session_id: string;
  user_id: string;
  username: string;
  account_id: string;
  roles: string[];
  /** Every organisation of the user's account. */
  account_organisations: string[];
}

/**
 * The user behind a session that is not revoked, with the account's organisations; null for an
 * unknown or revoked session. Read on every request, so a logout takes effect at once.
 */
export async function findSessionPrincipal(
  db: Queryable,
  params: { sessionId: string; userId: string },
): Promise<SessionPrincipalRow | null> {
  const { rows } = await db.query<SessionPrincipalRow>(
    `SELECT s.id AS session_id, u.id AS user_id, u.username, u.account_id, u.roles,
            COALESCE((SELECT array_agg(o.userorganisation ORDER BY o.userorganisation)
                        FROM organisations o WHERE o.account_id = u.account_id), '{}') AS account_organisations
       FROM sessions s
       JOIN users u ON u.id = s.user_id
      WHERE s.id = $1 AND s.user_id = $2 AND s.revoked IS NULL`,
    [params.sessionId, params.userId],
  );
  return rows[0] ?? null;
}
