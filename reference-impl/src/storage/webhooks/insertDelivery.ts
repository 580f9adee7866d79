import type { Queryable } from '../db.ts';

export interface InsertDeliveryParams {
  /** X-Service-Delivery. */
  id: string;
  tokenId: string;
  /** The serialised CallbackBody: every attempt sends exactly these bytes. */
  body: Uint8Array;
  itemCount: number;
  createdAt: Date;
}

/**
 * Adds a pending delivery, due at once. False when the token already has a pending delivery
 * (another instance made one first): the caller rolls back and its queued changes stay queued.
 */
export async function insertDelivery(db: Queryable, params: InsertDeliveryParams): Promise<boolean> {
  const { rows } = await db.query(
    `INSERT INTO webhook_deliveries (id, token_id, body, item_count, state, created_at, next_attempt_at)
     VALUES ($1, $2, $3, $4, 'pending', $5, $5)
     ON CONFLICT (token_id) WHERE state = 'pending' DO NOTHING
     RETURNING id`,
    [params.id, params.tokenId, params.body, params.itemCount, params.createdAt],
  );
  return rows.length > 0;
}
