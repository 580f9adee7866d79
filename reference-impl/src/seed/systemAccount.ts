import type { Queryable } from '../storage/db.ts';
import { insertAccount } from '../storage/accounts/insertAccount.ts';

/** The account of operator tokens (the bootstrap and demo super admins): it owns no organisation. */
export const SYSTEM_ACCOUNT = { id: 'system', name: 'System', organisations: [] as string[] } as const;

export async function ensureSystemAccount(db: Queryable): Promise<string> {
  await insertAccount(db, SYSTEM_ACCOUNT);
  return SYSTEM_ACCOUNT.id;
}
