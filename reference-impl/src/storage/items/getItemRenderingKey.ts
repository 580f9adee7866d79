import type { Queryable } from '../db.ts';
import { isUuid } from './itemRow.ts';
import { currentRenderingKeySql } from './renderingKey.ts';

/**
 * The rendering key in force now for the item `id` (migration 008): what its rendering is made
 * with, stored or live; null when there is no such item. For the If-Match of a write (DEC-ITEM-031).
 */
export async function getItemRenderingKey(
  db: Queryable,
  params: { id: string; rendererVersion: number },
): Promise<string | null> {
  if (!isUuid(params.id)) return null;
  const { rows } = await db.query<{ key: string }>(
    `SELECT ${currentRenderingKeySql('$2')} AS key FROM items WHERE items.id = $1`,
    [params.id, params.rendererVersion],
  );
  return rows[0]?.key ?? null;
}
