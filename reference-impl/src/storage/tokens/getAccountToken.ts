import type { Queryable } from '../db.ts';
import { isUuid } from '../items/itemRow.ts';
import { TOKEN_COLUMNS, type TokenRow } from './tokenRow.ts';

/**
 * The token `tokenId` of account `accountId`, or null. `forUpdate` locks its row to the end of
 * the transaction (read-modify-write of PUT and rotate-secret).
 */
export async function getAccountToken(
  db: Queryable,
  params: { accountId: string; tokenId: string; forUpdate?: boolean },
): Promise<TokenRow | null> {
  if (!isUuid(params.tokenId)) return null;
  const { rows } = await db.query<TokenRow>(
    `SELECT ${TOKEN_COLUMNS} FROM api_tokens WHERE id = $1 AND account_id = $2${params.forUpdate ? ' FOR UPDATE' : ''}`,
    [params.tokenId, params.accountId],
  );
  return rows[0] ?? null;
}
