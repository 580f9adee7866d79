import type { Queryable } from '../db.ts';

/** True when the store holds no account and no item: the one state demo data is seeded into. */
export async function isStoreEmpty(db: Queryable): Promise<boolean> {
  const { rows } = await db.query<{ empty: boolean }>(
    'SELECT NOT EXISTS (SELECT 1 FROM accounts) AND NOT EXISTS (SELECT 1 FROM items) AS empty',
  );
  return rows[0]!.empty;
}
