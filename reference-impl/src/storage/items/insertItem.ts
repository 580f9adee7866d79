import { randomUUID } from 'node:crypto';
import type { EntityType } from '../../domain/entityRules.ts';
import type { Queryable } from '../db.ts';
import { ITEM_COLUMNS, NEXT_STAMP, type ItemFields, type StoredItem } from './itemRow.ts';

export interface InsertItemParams extends ItemFields {
  /** Defaults to a fresh UUID. */
  id?: string;
  entitytype: EntityType;
}

/** Unique keys a create can collide on (`UniqueViolationError.constraint`). */
export const ITEM_TRCID_CONSTRAINT = 'items_trcid_key';
export const ITEM_EXTERNAL_ID_CONSTRAINT = 'items_external_id_key';

/**
 * Stores a new item. `creationdate` and `lastupdated` are both the write's stamp (DEC-ITEM-009).
 * Throws UniqueViolationError (constraint ITEM_TRCID_CONSTRAINT or ITEM_EXTERNAL_ID_CONSTRAINT).
 */
export async function insertItem(db: Queryable, params: InsertItemParams): Promise<StoredItem> {
  const { rows } = await db.query<StoredItem>(
    `WITH ${NEXT_STAMP}
     INSERT INTO items (id, trcid, entitytype, wfstatus, userorganisation, creationdate, lastupdated, external_id, title, slug, doc,
                        rendered_body, rendered_key)
     SELECT $1, $2, $3, $4, $5, stamp.at, stamp.at, $6, $7, $8, $9::text::jsonb, $10, $11 FROM stamp
     RETURNING ${ITEM_COLUMNS}`,
    [
      params.id ?? randomUUID(),
      params.trcid,
      params.entitytype,
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
  return rows[0]!;
}
