// DEC-AUTH-010: no privilege escalation through token administration.
import { badRequest, HttpError } from '../http/HttpError.ts';
import { isSuperAdmin, type Principal } from '../http/principal.ts';

const RANK: Readonly<Record<string, number>> = { ROLE_EXTERNAL_USER: 0, ROLE_ADMIN: 1, ROLE_SUPER_ADMIN: 2 };

function highestRank(roles: readonly string[]): number {
  return Math.max(-1, ...roles.map((role) => RANK[role] ?? -1));
}

/**
 * 403 unless the caller holds each role (or one above it): an admin grants ROLE_EXTERNAL_USER
 * and ROLE_ADMIN, only a super admin grants ROLE_SUPER_ADMIN.
 */
export function assertGrantable(caller: Principal, roles: readonly string[]): void {
  const above = roles.filter((role) => (RANK[role] ?? Infinity) > highestRank(caller.roles));
  if (above.length > 0) {
    throw new HttpError(403, {
      message: `A token can be given only roles its creator holds: ${above.join(', ')} needs a caller holding it (caller has: ${caller.roles.join(', ')})`,
    });
  }
}

/**
 * 403 when the token holds a role above the caller's: an admin must not redirect, rescope or
 * delete a super-admin token that happens to live in its account (its webhook sees every account).
 */
export function assertManageable(caller: Principal, tokenRoles: readonly string[]): void {
  if (isSuperAdmin(caller) || highestRank(tokenRoles) <= highestRank(caller.roles)) return;
  throw new HttpError(403, {
    message: `This token holds ${tokenRoles.join(', ')}; only a caller holding those roles can change it`,
  });
}

/** 400 unless every organisation of the filter belongs to the token's account. */
export function assertOrganisationsOfAccount(
  organisations: readonly string[] | undefined,
  accountOrganisations: readonly string[],
  accountId: string,
): void {
  if (organisations === undefined) return;
  const index = organisations.findIndex((o) => !accountOrganisations.includes(o));
  if (index >= 0) {
    throw badRequest(
      `/apiTokenFilter/userorganisations/${index}`,
      `apiTokenFilter.userorganisations: ${organisations[index]} is not an organisation of account ${accountId} (its organisations: ${accountOrganisations.join(', ') || 'none'})`,
    );
  }
}
