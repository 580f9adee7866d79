// The operator's view of a token's deliveries (DEC-HOOK-007, DEC-HOOK-011).
import type { components } from '../../../generated/types.ts';
import { formatTimestamp } from '../domain/timestamps.ts';
import type { Queryable } from '../storage/db.ts';
import { listDeliveries, type DeliveryRow } from '../storage/webhooks/listDeliveries.ts';

/** A delivery as the spec's Delivery schema shows it. */
export type DeliveryView = components['schemas']['Delivery'];

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
