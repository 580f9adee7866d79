import type { Queryable } from '../db.ts';

/**
 * Takes the store-wide item write lock (the item_stamp row) until the transaction ends. Call it
 * first in a transaction that reads an item and then writes it (PUT, DELETE, feed updates): no
 * other item write can commit between the read and the write, and every transaction takes the
 * stamp lock before any item row lock, so writers cannot deadlock. insertItem/updateItem take the
 * same lock themselves; this only moves it to the start. Organisation and ontology writes take it
 * too, first (migration 010's BEFORE triggers): one lock order for every writer.
 */
export async function lockItemWrites(tx: Queryable): Promise<void> {
  await tx.query('SELECT 1 FROM item_stamp FOR UPDATE');
}
