import type { Queryable } from '../db.ts';

/**
 * Deletes the users the demo seed made (migration 017's flag); their sessions go with them
 * (ON DELETE CASCADE), so their access and refresh tokens stop working at once. Returns how many.
 */
export async function deleteDemoUsers(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ id: string }>('DELETE FROM users WHERE demo RETURNING id');
  return rows.length;
}
