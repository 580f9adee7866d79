import type { Queryable } from '../db.ts';
import { ITEM_COLUMNS, type StoredItem, type StoredRendering } from './itemRow.ts';
import { currentRenderingKeysSql, unownedRenderingKeySql } from './renderingKey.ts';

// Renewing stored renderings (migration 007) without touching the items: no new lastupdated, no
// webhook, the document as it is.

/**
 * Items after `afterId` (in id order) whose stored rendering is missing or not current for
 * `rendererVersion` and the owner's ontology versions in force now. A rendering made by a newer
 * renderer is left alone: during a rolling deploy the old instances must not undo the new ones'.
 */
export async function listStaleRenderings(
  db: Queryable,
  params: { rendererVersion: number; afterId: string | null; limit: number },
): Promise<StoredItem[]> {
  // The keys of all organisations, joined once: a pass scans the whole table.
  const { rows } = await db.query<StoredItem>(
    `SELECT ${ITEM_COLUMNS} FROM items
       LEFT JOIN (${currentRenderingKeysSql('$1')}) k ON k.userorganisation = items.userorganisation
      WHERE ($2::uuid IS NULL OR items.id > $2::uuid)
        AND (items.rendered_body IS NULL
             OR (items.rendered_key IS DISTINCT FROM coalesce(k.key, ${unownedRenderingKeySql('$1')})
                 AND split_part(items.rendered_key, ':', 1)::int <= $1::int))
      ORDER BY items.id LIMIT $3`,
    [params.rendererVersion, params.afterId, params.limit],
  );
  return rows;
}

/**
 * Stores renderings, each only if its item still has the `lastupdated` it was rendered from (a
 * write in between stored its own). Returns how many were stored.
 */
export async function storeRenderings(
  db: Queryable,
  renderings: ReadonlyArray<{ id: string; lastupdated: Date; rendering: StoredRendering }>,
): Promise<number> {
  if (renderings.length === 0) return 0;
  const { affectedRows } = await db.query(
    `UPDATE items SET rendered_body = u.body, rendered_key = u.key
       FROM unnest($1::uuid[], $2::timestamptz[], $3::text[], $4::text[]) AS u(id, lastupdated, body, key)
      WHERE items.id = u.id AND items.lastupdated = u.lastupdated`,
    [
      renderings.map((r) => r.id),
      renderings.map((r) => r.lastupdated),
      renderings.map((r) => r.rendering.body),
      renderings.map((r) => r.rendering.key),
    ],
  );
  return affectedRows ?? 0;
}
