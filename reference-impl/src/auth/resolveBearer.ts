import { WORKFLOW_STATUS } from '../../../generated/constants.ts';
import type { BearerResolver } from '../http/authenticate.ts';
import type { Principal, Role } from '../http/principal.ts';
import { ROLES } from '../http/principal.ts';
import type { Queryable } from '../storage/db.ts';
import { findTokenByHash, type TokenCredential } from '../storage/tokens/findTokenByHash.ts';
import type { TokenCache } from './tokenCache.ts';
import { hashToken } from './tokenHash.ts';

export interface SessionVerifier {
  /** The session's principal, or null for an invalid, expired or revoked session token. */
  verify(token: string): Promise<Principal | null>;
}

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

// @implements AUTH-001, AUTH-003
/**
 * Session tokens are JWTs; everything else is an account token, found by its hash: in `cache`
 * when given, else in the database. No token value is ever compared in code, only hashes as keys.
 */
export function createBearerResolver(deps: {
  db: Queryable;
  sessions?: SessionVerifier;
  cache?: TokenCache;
}): BearerResolver {
  const { cache } = deps;
  return async function resolveBearer(bearer) {
    if (JWT_SHAPE.test(bearer)) return deps.sessions ? deps.sessions.verify(bearer) : null;
    const tokenHash = hashToken(bearer);
    const cached = cache?.get(tokenHash);
    if (cached !== undefined) return cached;
    const store = cache?.beginLookup();
    const credential = await findTokenByHash(deps.db, { tokenHash });
    if (credential === null) return null;
    const principal = principalOfToken(credential);
    store?.(tokenHash, principal);
    return principal;
  };
}

/** DEC-AUTH-004: absent filter axes mean the account's organisations and live data only. */
export function principalOfToken(credential: TokenCredential): Principal {
  const roles = credential.roles.filter((role): role is Role => (ROLES as readonly string[]).includes(role));
  const superAdmin = roles.includes('ROLE_SUPER_ADMIN');
  return {
    kind: 'apiToken',
    subjectId: credential.id,
    accountId: credential.account_id,
    name: credential.name,
    roles,
    organisations: superAdmin ? 'all' : (credential.filter_userorganisations ?? credential.account_organisations),
    accountOrganisations: credential.account_organisations,
    wfstatus: superAdmin ? 'all' : (credential.filter_wfstatus ?? [WORKFLOW_STATUS.approved]),
    canWrite: credential.can_write,
  };
}
