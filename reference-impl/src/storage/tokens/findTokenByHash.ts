import type { Queryable } from '../db.ts';

export interface TokenCredential {
  id: string;
  name: string;
  account_id: string;
  roles: string[];
  filter_userorganisations: string[] | null;
  filter_wfstatus: string[] | null;
  can_write: boolean;
  /** Every organisation of the token's account. */
  account_organisations: string[];
}

/** The token whose value hashes to `tokenHash`, with its account's organisations; null if none. */
export async function findTokenByHash(db: Queryable, params: { tokenHash: string }): Promise<TokenCredential | null> {
  const { rows } = await db.query<TokenCredential>(
    `SELECT t.id, t.name, t.account_id, t.roles, t.filter_userorganisations, t.filter_wfstatus, t.can_write,
            COALESCE((SELECT array_agg(o.userorganisation ORDER BY o.userorganisation)
                        FROM organisations o WHERE o.account_id = t.account_id), '{}') AS account_organisations
       FROM api_tokens t
      WHERE t.token_hash = $1`,
    [params.tokenHash],
  );
  return rows[0] ?? null;
}
