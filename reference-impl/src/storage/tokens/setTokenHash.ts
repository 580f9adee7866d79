import type { Queryable } from '../db.ts';

/** Gives a token a new value (by its hash): the old value stops working at once. */
export async function setTokenHash(db: Queryable, params: { id: string; tokenHash: string }): Promise<void> {
  await db.query('UPDATE api_tokens SET token_hash = $2 WHERE id = $1', [params.id, params.tokenHash]);
}
