import type { Queryable } from '../db.ts';

/** Removes queued changes: the ids given, or every one of a token (`tokenId`). */
export async function deleteQueuedChanges(
  db: Queryable,
  params: { ids: readonly number[] } | { tokenId: string },
): Promise<void> {
  if ('ids' in params) {
    if (params.ids.length > 0)
      await db.query('DELETE FROM webhook_outbox WHERE id = ANY($1::bigint[])', [[...params.ids]]);
    return;
  }
  await db.query('DELETE FROM webhook_outbox WHERE token_id = $1', [params.tokenId]);
}
