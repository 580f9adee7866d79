import type { Request, RequestHandler, Response } from 'express';
import { HttpError } from './HttpError.ts';

// @implements AUTH-006
export const ROLES = ['ROLE_EXTERNAL_USER', 'ROLE_ADMIN', 'ROLE_SUPER_ADMIN'] as const;
export type Role = (typeof ROLES)[number];
export const ADMIN_ROLES: readonly Role[] = ['ROLE_ADMIN', 'ROLE_SUPER_ADMIN'];

/** Who is calling, resolved once per request from the bearer token. */
export interface Principal {
  readonly kind: 'apiToken' | 'session';
  /** The token id (account tokens) or user id (sessions). */
  readonly subjectId: string;
  /** The session id, for logout (sessions only). */
  readonly sessionId?: string;
  readonly accountId: string;
  /** Who writes, as items' createdby/lastupdatedby name it (DEC-ITEM-171): the token's name or the user's username. */
  readonly name?: string;
  readonly roles: readonly Role[];
  // @implements AUTH-004
  /** Organisations whose items the caller sees; 'all' for super admins (AUTH-004). */
  readonly organisations: readonly string[] | 'all';
  /** The organisations of the caller's own account: where its writes go by default (DEC-ITEM-007). */
  readonly accountOrganisations: readonly string[];
  // @implements AUTH-005
  /** Workflow statuses the caller may see; 'all' for super admins (AUTH-004, AUTH-005). */
  readonly wfstatus: readonly string[] | 'all';
  /** Whether the caller may write items and assets (DEC-AUTH-020); sessions always may. */
  readonly canWrite: boolean;
}

const PRINCIPAL = Symbol('principal');

export function setPrincipal(res: Response, principal: Principal): void {
  (res.locals as Record<symbol, unknown>)[PRINCIPAL] = principal;
}

/** The caller when a bearer was checked already, else undefined. */
export function findPrincipal(res: Response): Principal | undefined {
  return (res.locals as Record<symbol, unknown>)[PRINCIPAL] as Principal | undefined;
}

/** The authenticated caller; only valid behind `authenticate()`. */
export function principalOf(res: Response): Principal {
  const principal = (res.locals as Record<symbol, unknown>)[PRINCIPAL] as Principal | undefined;
  if (principal === undefined)
    throw new Error('principalOf: no principal; is authenticate() mounted before this handler?');
  return principal;
}

export function isSuperAdmin(principal: Principal): boolean {
  return principal.roles.includes('ROLE_SUPER_ADMIN');
}

function hasAnyRole(principal: Principal, roles: readonly Role[]): boolean {
  return roles.some((role) => principal.roles.includes(role));
}

/** 403 unless the caller holds one of `roles` (DEC-ERR-002). */
export function requireRoles(roles: readonly Role[]): RequestHandler {
  return function requireRolesHandler(_req: Request, res: Response, next) {
    const principal = principalOf(res);
    if (!hasAnyRole(principal, roles)) {
      throw new HttpError(403, {
        message: `This operation requires ${roles.join(' or ')} (token has: ${principal.roles.join(', ') || 'no role'})`,
      });
    }
    next();
  };
}

// @implements DEC-AUTH-020
/**
 * 403 unless the caller holds the write grant (DEC-AUTH-020): a token made to read cannot
 * publish, replace or delete content, whatever its scope.
 */
export function assertWriteGrant(caller: { readonly canWrite: boolean }): void {
  if (!caller.canWrite) {
    throw new HttpError(403, {
      message:
        'This token may not write (canWrite: false): it reads only. An admin gives it the write grant with PUT /accounts/{accountId}/tokens/{tokenId} {"canWrite": true}',
    });
  }
}

/** The 403 of assertWriteGrant before the body is read, for writes that target no stored object (creates). */
export function requireWriteGrant(): RequestHandler {
  return function requireWriteGrantHandler(_req: Request, res: Response, next) {
    assertWriteGrant(principalOf(res));
    next();
  };
}

/**
 * 404 unless the caller may act on `accountId`: its own account, or any account for super admins.
 * 404 rather than 403 so that other accounts' existence does not leak (DEC-ERR-002).
 */
export function assertAccountAccess(principal: Principal, accountId: string): void {
  if (principal.accountId !== accountId && !isSuperAdmin(principal)) {
    throw new HttpError(404, { message: `No account ${accountId}` });
  }
}
