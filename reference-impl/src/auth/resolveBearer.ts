import type { Principal, Role } from '../http/principal.ts';
import { ROLES } from '../http/principal.ts';
import type { Queryable } from '../storage/db.ts';
import { findTokenByHash, type TokenCredential } from '../storage/tokens/findTokenByHash.ts';
import { hashToken } from './tokenHash.ts';

/** Resolves a bearer value to the caller, or null when it is unknown, expired or revoked. */
export type BearerResolver = (bearer: string) => Promise<Principal | null>;

export interface SessionVerifier {
  /** The session's principal, or null for an invalid, expired or revoked session token. */
  verify(token: string): Promise<Principal | null>;
}

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/**
 * Session tokens are JWTs; everything else is looked up as an account token by its hash. The
 * hash comparison happens in the database index, so no token value is ever compared in code.
 */
export function createBearerResolver(deps: { db: Queryable; sessions?: SessionVerifier }): BearerResolver {
  return async function resolveBearer(bearer) {
    if (JWT_SHAPE.test(bearer)) return deps.sessions ? deps.sessions.verify(bearer) : null;
    const credential = await findTokenByHash(deps.db, { tokenHash: hashToken(bearer) });
    return credential && principalOfToken(credential);
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
    roles,
    organisations: superAdmin ? 'all' : (credential.filter_userorganisations ?? credential.account_organisations),
    accountOrganisations: credential.account_organisations,
    wfstatus: superAdmin ? 'all' : (credential.filter_wfstatus ?? ['approved']),
  };
}
