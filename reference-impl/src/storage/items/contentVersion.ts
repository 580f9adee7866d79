import type { Queryable } from '../db.ts';

/**
 * The store's content version (migration 010): a new value in the same commit as any change to
 * items, account ontology overrides or organisations; only ever compared for equality.
 */
export async function readContentVersion(db: Queryable): Promise<string> {
  const { rows } = await db.query<{ content_version: string }>('SELECT content_version FROM item_stamp');
  return rows[0]!.content_version;
}
