import { WORKFLOW_STATUS } from '../../../generated/constants.ts';
import type { Collection } from '../domain/entityRules.ts';
import type { Db } from '../storage/db.ts';
import { getItemById } from '../storage/items/getItemById.ts';
import type { StoredItem } from '../storage/items/itemRow.ts';
import { lockItemWrites } from '../storage/items/lockItemWrites.ts';
import { updateItem } from '../storage/items/updateItem.ts';
import { entitytypeOf } from '../domain/entityRules.ts';
import { assertWriteGrant } from '../http/principal.ts';
import { canDelete, itemNotFound } from './access.ts';
import { assertIfMatch, writeItem, type ItemWriteDeps, type ItemWriter, type WriteItemResult } from './writeItem.ts';

// The three item writes of the interface, each one transaction with its outbox event.

// @implements WRITE-001
/** POST /{collection} (WRITE-001, DEC-ITEM-002). */
export async function createItem(
  db: Db,
  deps: ItemWriteDeps,
  params: { collection: Collection; body: unknown; writer: ItemWriter },
): Promise<WriteItemResult> {
  return writeItem(db, deps, { collection: params.collection, writer: params.writer, body: params.body });
}

/** PUT /{collection}/{id}: a full replacement of the writable fields (DEC-ITEM-001). */
export async function replaceItem(
  db: Db,
  deps: ItemWriteDeps,
  params: { collection: Collection; id: string; body: unknown; writer: ItemWriter; ifMatch?: string },
): Promise<WriteItemResult> {
  return writeItem(db, deps, {
    collection: params.collection,
    writer: params.writer,
    match: { id: params.id },
    body: params.body,
    ifMatch: params.ifMatch,
  });
}

// @implements WF-004
/**
 * DELETE /{collection}/{id}: a soft delete, everything kept but `wfstatus: deleted` and a new
 * `lastupdated` (DEC-ITEM-003), recorded as DELETED (DEC-HOOK-003). 404 when the writer cannot
 * see the item or it is deleted already.
 */
export async function softDeleteItem(
  db: Db,
  deps: Pick<ItemWriteDeps, 'recordItemChange' | 'ontologies'>,
  params: { collection: Collection; id: string; writer: ItemWriter; ifMatch?: string },
): Promise<StoredItem> {
  const entitytype = entitytypeOf(params.collection);
  return db.transaction(async (tx) => {
    await lockItemWrites(tx);
    const current = await getItemById(tx, { entitytype, id: params.id });
    if (current === null || !canDelete(params.writer, current)) throw itemNotFound(params.collection, params.id);
    assertWriteGrant(params.writer);
    await assertIfMatch(tx, deps.ontologies, current, params.ifMatch);
    const item = await updateItem(tx, { ...current, entitytype, wfstatus: WORKFLOW_STATUS.deleted });
    if (item === null) throw new Error(`item ${current.id} vanished under the item write lock`);
    await deps.recordItemChange(tx, {
      itemId: item.id,
      trcid: item.trcid,
      entitytype: item.entitytype,
      userorganisation: item.userorganisation,
      action: 'DELETED',
    });
    return item;
  });
}
