import { hashToken } from '../auth/tokenHash.ts';
import type { Queryable } from '../storage/db.ts';
import { ensureToken } from '../storage/tokens/ensureToken.ts';
import { ensureSystemAccount } from './systemAccount.ts';

/**
 * BOOTSTRAP_ADMIN_TOKEN: a super-admin token with exactly this value exists after start, seeing
 * every organisation and every status, with the write grant (DEC-AUTH-020) to give on. Idempotent by the value's hash, so every start may run it;
 * the value itself is never stored (DEC-AUTH-006) and never logged.
 */
export async function ensureBootstrapAdminToken(db: Queryable, value: string): Promise<{ created: boolean }> {
  const accountId = await ensureSystemAccount(db);
  const { created } = await ensureToken(db, {
    accountId,
    name: 'bootstrap super admin (BOOTSTRAP_ADMIN_TOKEN)',
    roles: ['ROLE_SUPER_ADMIN'],
    tokenHash: hashToken(value),
    canWrite: true,
  });
  return { created };
}
