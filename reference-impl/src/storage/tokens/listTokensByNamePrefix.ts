import type { Queryable } from '../db.ts';

export interface NamedToken {
  id: string;
  account_id: string;
  name: string;
  roles: string[];
  filter_wfstatus: string[] | null;
}

/** Tokens whose name starts with `prefix` (the demo tokens), oldest first. */
export async function listTokensByNamePrefix(db: Queryable, params: { prefix: string }): Promise<NamedToken[]> {
  const { rows } = await db.query<NamedToken>(
    `SELECT id, account_id, name, roles, filter_wfstatus FROM api_tokens
      WHERE starts_with(name, $1) ORDER BY created, id`,
    [params.prefix],
  );
  return rows;
}
