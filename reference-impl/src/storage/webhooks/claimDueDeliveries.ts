import type { Queryable } from '../db.ts';

export interface ClaimedDelivery {
  id: string;
  tokenId: string;
  body: Uint8Array;
  itemCount: number;
  /** Attempts recorded before this one. */
  attemptCount: number;
  firstAttemptAt: Date | null;
  /** Read now, at send time: a changed URL or a rotated secret applies to retries too. */
  callbackUrl: string | null;
  signingSecret: string | null;
}

export interface ClaimParams {
  now: Date;
  /** Until when the claim holds; after that a crashed worker's delivery is claimable again. */
  leaseUntil: Date;
  /** Identifies this claim: only its holder can record the outcome. */
  claimId: string;
  limit: number;
}

/**
 * Leases up to `limit` due pending deliveries, oldest due first. FOR UPDATE SKIP LOCKED lets
 * several instances claim side by side without waiting on or double-taking each other's rows.
 */
export async function claimDueDeliveries(db: Queryable, params: ClaimParams): Promise<ClaimedDelivery[]> {
  const { rows } = await db.query<ClaimedDelivery>(
    `UPDATE webhook_deliveries d
        SET lease_until = $2, claim_id = $3
       FROM api_tokens t
      WHERE d.id IN (SELECT id FROM webhook_deliveries
                      WHERE state = 'pending' AND next_attempt_at <= $1
                        AND (lease_until IS NULL OR lease_until <= $1)
                      ORDER BY next_attempt_at
                      LIMIT $4
                        FOR UPDATE SKIP LOCKED)
        AND t.id = d.token_id
     RETURNING d.id, d.token_id AS "tokenId", d.body, d.item_count AS "itemCount", d.attempt_count AS "attemptCount",
               d.first_attempt_at AS "firstAttemptAt", t.callback_url AS "callbackUrl", t.signing_secret AS "signingSecret"`,
    [params.now, params.leaseUntil, params.claimId, params.limit],
  );
  return rows;
}
