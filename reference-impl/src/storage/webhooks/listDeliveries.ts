import type { Queryable } from '../db.ts';

export interface DeliveryAttemptRow {
  at: Date;
  status: number | null;
  latencyMs: number;
  error: string | null;
  outcome: 'delivered' | 'transient' | 'permanent';
}

export interface DeliveryRow {
  id: string;
  state: 'pending' | 'delivered' | 'failed' | 'dropped';
  createdAt: Date;
  nextAttemptAt: Date | null;
  itemCount: number;
  attempts: DeliveryAttemptRow[];
}

/** A token's deliveries, newest first, `size` per zero-based `page`, each with its attempts oldest first. */
export async function listDeliveries(
  db: Queryable,
  params: { tokenId: string; size: number; page: number },
): Promise<DeliveryRow[]> {
  const { rows } = await db.query<Omit<DeliveryRow, 'attempts'>>(
    `SELECT id, state, created_at AS "createdAt", next_attempt_at AS "nextAttemptAt", item_count AS "itemCount"
       FROM webhook_deliveries
      WHERE token_id = $1
      ORDER BY created_at DESC, id DESC
      LIMIT $2 OFFSET $3`,
    [params.tokenId, params.size, params.size * params.page],
  );
  if (rows.length === 0) return [];
  const { rows: attempts } = await db.query<DeliveryAttemptRow & { deliveryId: string }>(
    `SELECT delivery_id AS "deliveryId", at, status, latency_ms AS "latencyMs", error, outcome
       FROM webhook_attempts
      WHERE delivery_id = ANY($1::uuid[])
      ORDER BY delivery_id, attempt`,
    [rows.map((r) => r.id)],
  );
  return rows.map((row) => ({
    ...row,
    attempts: attempts.filter((a) => a.deliveryId === row.id).map(({ deliveryId: _id, ...attempt }) => attempt),
  }));
}
