import type { Queryable } from '../db.ts';

export interface OutboxEvent {
  itemId: string;
  trcid: string;
  entitytype: string;
  userorganisation: string;
  action: 'UPDATED' | 'DELETED';
}

/**
 * Queues `event` for every token with a webhook whose organisation filter matches the item
 * (HOOK-008): super-admin tokens match every organisation; a token without an organisation
 * filter matches its account's organisations (DEC-AUTH-004). Returns how many tokens it queued for.
 */
export async function insertOutboxEvents(db: Queryable, event: OutboxEvent): Promise<number> {
  // The tokens are locked (FOR KEY SHARE) before the rows referencing them are written: a token
  // deleted meanwhile is waited for and then skipped, instead of failing the item's write.
  const { rows } = await db.query<{ token_id: string }>(
    `WITH subscribed AS (
       SELECT t.id
         FROM api_tokens t
        WHERE t.callback_url IS NOT NULL
          AND ('ROLE_SUPER_ADMIN' = ANY (t.roles)
               OR CASE WHEN t.filter_userorganisations IS NULL
                       THEN EXISTS (SELECT 1 FROM organisations o WHERE o.userorganisation = $5 AND o.account_id = t.account_id)
                       ELSE $5 = ANY (t.filter_userorganisations) END)
          FOR KEY SHARE OF t
     )
     INSERT INTO webhook_outbox (token_id, item_id, trcid, entitytype, action, created_at)
     SELECT id, $1, $2, $3, $4, now() FROM subscribed
     RETURNING token_id`,
    [event.itemId, event.trcid, event.entitytype, event.action, event.userorganisation],
  );
  return rows.length;
}
