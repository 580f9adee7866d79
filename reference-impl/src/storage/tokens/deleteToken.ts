import type { Queryable } from '../db.ts';
import { isUuid } from '../items/itemRow.ts';

/**
 * Deletes the token; its queued changes and deliveries go with it (foreign keys ON DELETE
 * CASCADE, DEC-HOOK-010). False when there is no such token in the account.
 */
export async function deleteToken(db: Queryable, params: { accountId: string; tokenId: string }): Promise<boolean> {
  if (!isUuid(params.tokenId)) return false;
  const { rows } = await db.query<{ id: string }>(
    'DELETE FROM api_tokens WHERE id = $1 AND account_id = $2 RETURNING id',
    [params.tokenId, params.accountId],
  );
  return rows.length > 0;
}
