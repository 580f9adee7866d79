import type { Queryable } from '../db.ts';
import { TOKEN_COLUMNS, arrayOrNull, type TokenFields, type TokenRow } from './tokenRow.ts';

/** Writes every settable column of token `id` (the caller merged the changes). Null if it is gone. */
export async function updateToken(db: Queryable, params: TokenFields & { id: string }): Promise<TokenRow | null> {
  const { rows } = await db.query<TokenRow>(
    `UPDATE api_tokens
        SET name = $2, roles = $3, callback_url = $4, signing_secret = $5,
            filter_userorganisations = $6, filter_wfstatus = $7, use_optimized_images = $8, can_write = $9
      WHERE id = $1
     RETURNING ${TOKEN_COLUMNS}`,
    [
      params.id,
      params.name,
      [...params.roles],
      params.callbackUrl,
      params.signingSecret,
      arrayOrNull(params.filterUserorganisations),
      arrayOrNull(params.filterWfstatus),
      params.useOptimizedImages,
      params.canWrite,
    ],
  );
  return rows[0] ?? null;
}
