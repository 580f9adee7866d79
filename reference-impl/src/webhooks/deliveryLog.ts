// The operator's view of a token's deliveries (DEC-HOOK-007, DEC-HOOK-011).
import { formatTimestamp } from '../domain/timestamps.ts';
import type { Queryable } from '../storage/db.ts';
import { listDeliveries, type DeliveryRow } from '../storage/webhooks/listDeliveries.ts';

export interface DeliveryAttemptView {
  at: string;
  status: number | null;
  latencyMs: number;
  error?: string;
  outcome: 'delivered' | 'transient' | 'permanent';
}

export interface DeliveryView {
  id: string;
  state: DeliveryRow['state'];
  createdAt: string;
  nextAttemptAt?: string;
  itemCount: number;
  attempts: DeliveryAttemptView[];
}

function deliveryView(row: DeliveryRow): DeliveryView {
  return {
    id: row.id,
    state: row.state,
    createdAt: formatTimestamp(row.createdAt),
    ...(row.state === 'pending' && row.nextAttemptAt !== null
      ? { nextAttemptAt: formatTimestamp(row.nextAttemptAt) }
      : {}),
    itemCount: row.itemCount,
    attempts: row.attempts.map((a) => ({
      at: formatTimestamp(a.at),
      status: a.status,
      latencyMs: a.latencyMs,
      ...(a.error === null ? {} : { error: a.error }),
      outcome: a.outcome,
    })),
  };
}

/** A page of the token's deliveries, newest first. */
export async function readDeliveryLog(
  db: Queryable,
  params: { tokenId: string; size: number; page: number },
): Promise<DeliveryView[]> {
  return (await listDeliveries(db, params)).map(deliveryView);
}
