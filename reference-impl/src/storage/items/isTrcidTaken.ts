import type { Queryable } from '../db.ts';

/**
 * Whether an item holds a trcid equal to `trcid` in Unicode NFC (DEC-ITEM-006): also one stored
 * before trcids were normalised on write. By the index of migration 016.
 */
export async function isTrcidTaken(db: Queryable, params: { trcid: string }): Promise<boolean> {
  const { rows } = await db.query(`SELECT 1 FROM items WHERE normalize(trcid, NFC) = normalize($1, NFC) LIMIT 1`, [
    params.trcid,
  ]);
  return rows.length > 0;
}
