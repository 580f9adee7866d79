import type { Queryable } from '../db.ts';

export interface QueuedToken {
  tokenId: string;
  hasCallback: boolean;
}

/**
 * Tokens with queued changes and no pending delivery: the ones a new delivery can be made for
 * (one pending delivery per token). Scans tokens, not the backlog, so a long queue costs nothing here.
 */
export async function listTokensWithQueuedChanges(db: Queryable, params: { limit: number }): Promise<QueuedToken[]> {
  const { rows } = await db.query<QueuedToken>(
    `SELECT t.id AS "tokenId", t.callback_url IS NOT NULL AS "hasCallback"
       FROM api_tokens t
      WHERE EXISTS (SELECT 1 FROM webhook_outbox o WHERE o.token_id = t.id)
        AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.token_id = t.id AND d.state = 'pending')
      LIMIT $1`,
    [params.limit],
  );
  return rows;
}
