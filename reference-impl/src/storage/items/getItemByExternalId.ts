import type { Queryable } from '../db.ts';
import { ITEM_COLUMNS, type StoredItem } from './itemRow.ts';

/** The item a feed created for this `externalId` (`<feed name>:<partner id>`, DEC-FEED-003), if any. */
export async function getItemByExternalId(db: Queryable, params: { externalId: string }): Promise<StoredItem | null> {
  const { rows } = await db.query<StoredItem>(`SELECT ${ITEM_COLUMNS} FROM items WHERE external_id = $1`, [
    params.externalId,
  ]);
  return rows[0] ?? null;
}
