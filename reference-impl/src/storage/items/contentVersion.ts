import type { Queryable } from '../db.ts';

/**
 * The store's content version (migration 010): it changes in the same commit as any item, account
 * ontology override or organisation. As text, since a bigint may exceed a JavaScript number.
 */
export async function readContentVersion(db: Queryable): Promise<string> {
  const { rows } = await db.query<{ content_version: string | number }>('SELECT content_version FROM item_stamp');
  return String(rows[0]!.content_version);
}
