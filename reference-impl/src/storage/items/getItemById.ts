import type { EntityType } from '../../domain/entityRules.ts';
import type { Queryable } from '../db.ts';
import { ITEM_COLUMNS, isUuid, type StoredItem } from './itemRow.ts';

/**
 * The item with this id in the collection of `entitytype`, whatever its status (the caller
 * decides what a deleted or out-of-scope item means). Null when there is none.
 */
export async function getItemById(
  db: Queryable,
  params: { entitytype: EntityType; id: string },
): Promise<StoredItem | null> {
  if (!isUuid(params.id)) return null;
  const { rows } = await db.query<StoredItem>(`SELECT ${ITEM_COLUMNS} FROM items WHERE id = $1 AND entitytype = $2`, [
    params.id,
    params.entitytype,
  ]);
  return rows[0] ?? null;
}
