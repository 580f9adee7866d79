import type { Queryable } from '../db.ts';

export interface InsertDeliveryParams {
  /** X-Service-Delivery. */
  id: string;
  tokenId: string;
  /** The serialised CallbackBody: every attempt sends exactly these bytes. */
  body: Uint8Array;
  itemCount: number;
  createdAt: Date;
  /** Claimed at once by the worker that makes it (see claimDueDeliveries). */
  lease?: { until: Date; claimId: string };
}

/**
 * Adds a pending delivery, due at once. False when the token already has a pending delivery
 * (another instance made one first): the caller rolls back and its queued changes stay queued.
 */
export async function insertDelivery(db: Queryable, params: InsertDeliveryParams): Promise<boolean> {
  const { rows } = await db.query(
    `INSERT INTO webhook_deliveries (id, token_id, body, item_count, state, created_at, next_attempt_at, lease_until, claim_id)
     VALUES ($1, $2, $3, $4, 'pending', $5, $5, $6, $7)
     ON CONFLICT (token_id) WHERE state = 'pending' DO NOTHING
     RETURNING id`,
    [
      params.id,
      params.tokenId,
      params.body,
      params.itemCount,
      params.createdAt,
      params.lease?.until ?? null,
      params.lease?.claimId ?? null,
    ],
  );
  return rows.length > 0;
}
