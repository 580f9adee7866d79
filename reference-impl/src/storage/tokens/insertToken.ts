import type { Queryable } from '../db.ts';
import { TOKEN_COLUMNS, arrayOrNull, type TokenFields, type TokenRow } from './tokenRow.ts';

export interface InsertTokenParams extends TokenFields {
  id: string;
  accountId: string;
  /** SHA-256 of the token value (DEC-AUTH-006). */
  tokenHash: string;
  created: Date;
}

export async function insertToken(db: Queryable, params: InsertTokenParams): Promise<TokenRow> {
  const { rows } = await db.query<TokenRow>(
    `INSERT INTO api_tokens (id, account_id, name, roles, token_hash, callback_url, signing_secret,
                             filter_userorganisations, filter_wfstatus, use_optimized_images, created, can_write)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
     RETURNING ${TOKEN_COLUMNS}`,
    [
      params.id,
      params.accountId,
      params.name,
      [...params.roles],
      params.tokenHash,
      params.callbackUrl,
      params.signingSecret,
      arrayOrNull(params.filterUserorganisations),
      arrayOrNull(params.filterWfstatus),
      params.useOptimizedImages,
      params.created,
      params.canWrite,
    ],
  );
  return rows[0]!;
}
