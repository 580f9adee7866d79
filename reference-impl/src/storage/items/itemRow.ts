import type { EntityType } from '../../domain/entityRules.ts';
import type { StoredWfStatus } from '../../domain/workflow.ts';

/** An item as stored: the server columns, and the rest of the item as its JSON document. */
export interface StoredItem {
  id: string;
  trcid: string;
  entitytype: EntityType;
  wfstatus: StoredWfStatus;
  userorganisation: string;
  creationdate: Date;
  lastupdated: Date;
  externalId: string | null;
  /** Primary-language title, kept for sorting (DEC-LIST-003). */
  title: string | null;
  slug: string | null;
  /** Every other writable field of the item. */
  doc: Record<string, unknown>;
}

/** The writable columns and document of an insert or full update. */
export interface ItemFields {
  trcid: string;
  wfstatus: StoredWfStatus;
  userorganisation: string;
  externalId: string | null;
  title: string | null;
  slug: string | null;
  doc: Record<string, unknown>;
  /** The rendering of this document, when known (absent: the item is rendered live until renewed). */
  rendering?: StoredRendering;
}

/** Every column of a StoredItem but the document. */
export const ITEM_SERVER_COLUMNS = `items.id, items.trcid, items.entitytype, items.wfstatus, items.userorganisation,
  items.creationdate, items.lastupdated, items.external_id AS "externalId", items.title, items.slug`;

export const ITEM_COLUMNS = `${ITEM_SERVER_COLUMNS}, items.doc`;

/** An item's rendering as stored beside it (migration 007): the body and what it was rendered with. */
export interface StoredRendering {
  body: string;
  key: string;
}

// Why not now(): now() is the start of the transaction. A transaction that began before another
// but commits after it would appear with the older lastupdated, below the mark a sync client
// already took from the other one, and `lastupdated >= mark` would never return it. Instead every
// item write takes the next value from the one row of item_stamp. Its row lock is held to commit,
// so the next writer waits, then (READ COMMITTED re-reads the row it waited for) continues from
// the committed value: stamps are unique, strictly increasing and in commit order. They follow
// the wall clock (clock_timestamp(), not the transaction start) and step 1 ms past the previous
// stamp when writes come faster. Item writes must run at READ COMMITTED (the default).
export const NEXT_STAMP = `stamp AS (
  UPDATE item_stamp
     SET last_ms = GREATEST(last_ms + 1, floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint)
   RETURNING timestamptz 'epoch' + last_ms * interval '1 millisecond' AS at
)`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// @implements ITEM-002
/** Item ids are UUIDs (DEC-MISC-002); anything else cannot match and is not sent to the database. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
