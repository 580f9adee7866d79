import type { Queryable } from '../db.ts';

export interface QueuedChange {
  id: number;
  itemId: string;
  trcid: string;
  entitytype: string;
  action: 'UPDATED' | 'DELETED';
}

/**
 * The oldest queued changes of a token, locked for this transaction. SKIP LOCKED: rows another
 * instance is turning into a delivery right now are left to it.
 */
export async function takeQueuedChanges(
  db: Queryable,
  params: { tokenId: string; limit: number },
): Promise<QueuedChange[]> {
  const { rows } = await db.query<QueuedChange>(
    `SELECT id, item_id AS "itemId", trcid, entitytype, action
       FROM webhook_outbox
      WHERE token_id = $1
      ORDER BY id
      LIMIT $2
        FOR UPDATE SKIP LOCKED`,
    [params.tokenId, params.limit],
  );
  return rows;
}
