import type { Queryable } from '../db.ts';

/** The organisations of account `accountId`, sorted; null when there is no such account. */
export async function getAccountOrganisations(db: Queryable, params: { accountId: string }): Promise<string[] | null> {
  const { rows } = await db.query<{ organisations: string[] }>(
    `SELECT COALESCE((SELECT array_agg(o.userorganisation ORDER BY o.userorganisation)
                        FROM organisations o WHERE o.account_id = a.id), '{}') AS organisations
       FROM accounts a WHERE a.id = $1`,
    [params.accountId],
  );
  return rows[0]?.organisations ?? null;
}
