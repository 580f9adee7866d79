import type { Queryable } from '../db.ts';

export interface RecordAttemptParams {
  deliveryId: string;
  claimId: string;
  at: Date;
  status: number | null;
  latencyMs: number;
  error: string | null;
  outcome: 'delivered' | 'transient' | 'permanent';
  /** The delivery's state after this attempt. */
  state: 'pending' | 'delivered' | 'failed' | 'dropped';
  /** When `state` is pending: the next attempt. */
  nextAttemptAt: Date | null;
}

/**
 * Logs an attempt and moves the delivery on, releasing the lease, in one statement. Only the
 * current claim may do so: false when the lease was lost (another instance took the delivery
 * over) or the delivery is gone (its token was deleted).
 */
export async function recordAttempt(db: Queryable, params: RecordAttemptParams): Promise<boolean> {
  const { rows } = await db.query(
    `WITH d AS (
       UPDATE webhook_deliveries
          SET state = $3, next_attempt_at = $4, attempt_count = attempt_count + 1,
              first_attempt_at = COALESCE(first_attempt_at, $5), lease_until = NULL, claim_id = NULL
        WHERE id = $1 AND claim_id = $2
       RETURNING id, attempt_count
     )
     INSERT INTO webhook_attempts (delivery_id, attempt, at, status, latency_ms, error, outcome)
     SELECT d.id, d.attempt_count, $5, $6, $7, $8, $9 FROM d
     RETURNING attempt`,
    [
      params.deliveryId,
      params.claimId,
      params.state,
      params.nextAttemptAt,
      params.at,
      params.status,
      params.latencyMs,
      params.error === null ? null : params.error.slice(0, 1000),
      params.outcome,
    ],
  );
  return rows.length > 0;
}
