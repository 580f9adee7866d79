import type { SessionVerifier } from '../auth/resolveBearer.ts';
import { ROLES, type Principal, type Role } from '../http/principal.ts';
import type { Queryable } from '../storage/db.ts';
import { findSessionPrincipal, type SessionPrincipalRow } from '../storage/sessions/findSessionPrincipal.ts';
import { verifyAccessToken } from './accessToken.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface SessionVerifierOptions {
  db: Queryable;
  secret: string;
  /** Milliseconds since the epoch. */
  now: () => number;
}

/**
 * Session access tokens as bearers: a valid signature and `exp`, and a session row that is not
 * revoked (so logout and refresh-token reuse end the access token at once, not at its `exp`).
 */
export function createSessionVerifier(options: SessionVerifierOptions): SessionVerifier {
  return {
    async verify(token) {
      const claims = await verifyAccessToken(options, token);
      if (claims === null || !UUID.test(claims.sid) || !UUID.test(claims.sub)) return null;
      const row = await findSessionPrincipal(options.db, { sessionId: claims.sid, userId: claims.sub });
      return row && principalOfSession(row);
    },
  };
}

/**
 * DEC-AUTH-015: a session acts for its user with the user's current account and roles, and sees
 * every status of the account's organisations; a super admin sees every organisation. A signed-in
 * editor writes (DEC-AUTH-020: the write grant is a setting of account tokens).
 */
export function principalOfSession(row: SessionPrincipalRow): Principal {
  const roles = row.roles.filter((role): role is Role => (ROLES as readonly string[]).includes(role));
  return {
    kind: 'session',
    subjectId: row.user_id,
    sessionId: row.session_id,
    accountId: row.account_id,
    name: row.username,
    roles,
    organisations: roles.includes('ROLE_SUPER_ADMIN') ? 'all' : row.account_organisations,
    accountOrganisations: row.account_organisations,
    wfstatus: 'all',
    canWrite: true,
  };
}
