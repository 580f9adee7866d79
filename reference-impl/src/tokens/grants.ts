// DEC-AUTH-010: no privilege escalation through token administration.
import { principalOfToken } from '../auth/resolveBearer.ts';
import { normaliseWfstatus, STORED_WF_STATUSES } from '../domain/workflow.ts';
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

/** What a token may see once stored: its roles, and its filter with the DEC-AUTH-004 defaults. */
export interface TokenScope {
  accountId: string;
  roles: readonly string[];
  /** null: every organisation of the account. */
  filterUserorganisations: readonly string[] | null;
  /** null: live data only. */
  filterWfstatus: readonly string[] | null;
  accountOrganisations: readonly string[];
  /** The write grant (DEC-AUTH-020). */
  canWrite: boolean;
}

/** The members of `wanted` that `held` ('all' holds everything) lacks. */
function missing(wanted: readonly string[] | 'all', held: readonly string[] | 'all', everything: readonly string[]) {
  if (held === 'all') return [];
  return (wanted === 'all' ? everything : wanted).filter((value) => !held.includes(value));
}

// What a token sees when it sees every status (a super admin). `draft` is stored as
// readyforvalidation (workflow.ts): a filter naming it is compared as naming readyforvalidation,
// so a caller that lacks readyforvalidation cannot give it (DEC-AUTH-010), and one that sees it
// can.
const STORED_STATUSES: readonly string[] = STORED_WF_STATUSES;

/** Statuses as stored: `draft` is readyforvalidation. */
function asStored(statuses: readonly string[] | 'all'): readonly string[] | 'all' {
  return statuses === 'all' ? 'all' : statuses.map((status) => normaliseWfstatus(status));
}

/**
 * 403 unless the caller sees everything the token sees, on both filter axes, and holds the write
 * grant when the token does: a caller restricted to some organisations or statuses, or without
 * the grant, can give only what it has, and cannot widen a token (its own included) or manage one
 * wider than itself. `rule` opens the message.
 */
export function assertWithinScope(caller: Principal, token: TokenScope, rule: string): void {
  if (isSuperAdmin(caller)) return;
  const sees = principalOfToken({
    id: '',
    name: '',
    account_id: token.accountId,
    roles: [...token.roles],
    filter_userorganisations: token.filterUserorganisations === null ? null : [...token.filterUserorganisations],
    filter_wfstatus: token.filterWfstatus === null ? null : [...token.filterWfstatus],
    account_organisations: [...token.accountOrganisations],
    can_write: token.canWrite,
  });
  const organisations = missing(sees.organisations, caller.organisations, token.accountOrganisations);
  const statuses = [...new Set(missing(asStored(sees.wfstatus), asStored(caller.wfstatus), STORED_STATUSES))];
  const writes = token.canWrite && !caller.canWrite;
  if (organisations.length === 0 && statuses.length === 0 && !writes) return;
  const lacks = [
    ...(organisations.length > 0 ? [`sees organisations ${organisations.join(', ')}`] : []),
    ...(statuses.length > 0 ? [`sees statuses ${statuses.join(', ')}`] : []),
    ...(writes ? ['may write (canWrite)'] : []),
  ].join(' and ');
  throw new HttpError(403, {
    message: `${rule}: the token ${lacks}, which the caller does not (an absent apiTokenFilter.userorganisations means every organisation of the account, an absent wfstatus approved only)`,
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
