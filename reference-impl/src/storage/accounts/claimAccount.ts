import type { Queryable } from '../db.ts';

/**
 * Inserts an account only if its id is free and says whether this call inserted it. Atomic, so
 * of several instances starting on one empty database exactly one wins (the seed's claim).
 */
export async function claimAccount(db: Queryable, params: { id: string; name: string }): Promise<boolean> {
  const { rows } = await db.query<{ id: string }>(
    'INSERT INTO accounts (id, name) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING RETURNING id',
    [params.id, params.name],
  );
  return rows.length === 1;
}
