import type { Queryable } from '../db.ts';

/** Every account id, in order; the demo seed gives each its users. */
export async function listAccountIds(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM accounts ORDER BY id');
  return rows.map((row) => row.id);
}
