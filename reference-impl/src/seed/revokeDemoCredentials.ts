import type { Db } from '../storage/db.ts';
import { deleteDemoUsers } from '../storage/sessions/deleteDemoUsers.ts';
import { deleteDemoTokens } from '../storage/tokens/deleteDemoTokens.ts';

/** How many demo credentials a start with seeding off deleted. */
export interface RevokedDemoCredentials {
  tokens: number;
  users: number;
}

// @implements DEC-MISC-030
/**
 * A start with demo data off (issue 30): every token and user the demo seed made is deleted, so no
 * demo value ever printed (a super-admin token among them) outlives the demo. The demo items and
 * accounts stay: they are content, and deleting content is the operator's call. A later start with
 * seeding on renews nothing, since there is nothing left to renew.
 */
export async function revokeDemoCredentials(db: Db): Promise<RevokedDemoCredentials> {
  return db.transaction(async (tx) => ({ tokens: await deleteDemoTokens(tx), users: await deleteDemoUsers(tx) }));
}
