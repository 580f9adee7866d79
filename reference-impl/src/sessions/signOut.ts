import { HttpError } from '../http/HttpError.ts';
import type { Principal } from '../http/principal.ts';
import type { Queryable } from '../storage/db.ts';
import { revokeSession } from '../storage/sessions/revokeSession.ts';

/** Revokes the caller's session at once (DEC-AUTH-003); an account API token is a 400 (DEC-AUTH-013). */
export async function signOut(deps: { db: Queryable; now: () => number }, principal: Principal): Promise<void> {
  if (principal.kind !== 'session' || principal.sessionId === undefined) {
    throw new HttpError(400, {
      message:
        'logout revokes session tokens; delete an account API token with DELETE /accounts/{accountId}/tokens/{tokenId}',
    });
  }
  await revokeSession(deps.db, { sessionId: principal.sessionId, reason: 'logout', now: new Date(deps.now()) });
}
