import type { Queryable } from '../db.ts';

/**
 * Forgets a token's webhook work that has not happened yet: its queued changes and its pending
 * delivery (when its webhook is removed). Delivered, failed and dropped ones stay in the log.
 */
export async function dropPendingDeliveries(db: Queryable, params: { tokenId: string }): Promise<void> {
  await db.query('DELETE FROM webhook_outbox WHERE token_id = $1', [params.tokenId]);
  await db.query(`DELETE FROM webhook_deliveries WHERE token_id = $1 AND state = 'pending'`, [params.tokenId]);
}
