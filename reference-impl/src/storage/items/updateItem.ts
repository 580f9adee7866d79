import type { EntityType } from '../../domain/entityRules.ts';
import type { Queryable } from '../db.ts';
import { ITEM_COLUMNS, NEXT_STAMP, isUuid, type ItemFields, type StoredItem } from './itemRow.ts';

export interface UpdateItemParams extends ItemFields {
  id: string;
  /** The collection's entity type: an item of another type is not found. */
  entitytype: EntityType;
}

/**
 * Replaces an item's writable columns and document and stamps a new `lastupdated`
 * (DEC-ITEM-001, DEC-ITEM-009); `creationdate` is kept. Without `rendering` the stored one is
 * kept, and dropped by the table's trigger when the document changed (migration 007). Null when
 * there is no such item.
 */
export async function updateItem(db: Queryable, params: UpdateItemParams): Promise<StoredItem | null> {
  if (!isUuid(params.id)) return null;
  const { rows } = await db.query<StoredItem>(
    `WITH ${NEXT_STAMP}
     UPDATE items
        SET trcid = $3, wfstatus = $4, userorganisation = $5, external_id = $6, title = $7, slug = $8,
            doc = $9::text::jsonb, rendered_body = COALESCE($10, items.rendered_body),
            rendered_key = COALESCE($11, items.rendered_key), lastupdated = stamp.at
       FROM stamp
      WHERE items.id = $1 AND items.entitytype = $2
     RETURNING ${ITEM_COLUMNS}`,
    [
      params.id,
      params.entitytype,
      params.trcid,
      params.wfstatus,
      params.userorganisation,
      params.externalId,
      params.title,
      params.slug,
      JSON.stringify(params.doc),
      params.rendering?.body ?? null,
      params.rendering?.key ?? null,
    ],
  );
  return rows[0] ?? null;
}
