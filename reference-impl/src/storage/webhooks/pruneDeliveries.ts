import type { Queryable } from '../db.ts';

/** Deletes settled deliveries (and their attempts) created before `before`. Returns how many. */
export async function pruneDeliveries(db: Queryable, params: { before: Date }): Promise<number> {
  const { rows } = await db.query(
    `DELETE FROM webhook_deliveries WHERE state <> 'pending' AND created_at < $1 RETURNING id`,
    [params.before],
  );
  return rows.length;
}
