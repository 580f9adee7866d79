// Where a mirror lives. The sync procedure needs only these calls; a store may also apply one
// page atomically (`applyBatch`), which keeps a crash from leaving half a page written (harmless
// anyway: the mark is not saved, so the next run redoes the page).

import type { Collection, ContentItem, SyncItem } from './types.ts';

export type StoreOp<T extends SyncItem = ContentItem> =
  /**
   * `trcid`, `lastupdated` and `wfstatus` as sync read them. `json`: the item's JSON text as
   * received (UTF-8 bytes, a view into the page: copy what you keep), given to a store that
   * `keepsItemText`; sync then reads only those members from the page, and `item` is parsed from
   * `json` when first read.
   */
  | ({ op: 'upsert'; item: T; json?: Uint8Array } & Pick<SyncItem, 'trcid' | 'lastupdated' | 'wfstatus'>)
  | { op: 'remove'; trcid: string };

export interface BatchResult {
  upserted: number;
  /** Removals that found a local copy. */
  removed: number;
}

export interface SyncStore<T extends SyncItem = ContentItem> {
  /** The saved high-water mark: a `lastupdated` string exactly as the service sent it. */
  getMark(collection: Collection): Promise<string | undefined>;
  putMark(collection: Collection, mark: string): Promise<void>;
  /** Insert or replace the item with this `trcid`. */
  upsert(collection: Collection, item: T): Promise<void>;
  /** True when a local copy existed. */
  remove(collection: Collection, trcid: string): Promise<boolean>;
  listTrcids(collection: Collection): Promise<string[]>;
  getItem(collection: Collection, trcid: string): Promise<T | undefined>;
  /**
   * Optional: the store keeps each item's JSON text. Sync then reads from each page only the
   * members it needs and hands over each item's text as received (`StoreOp.json`), without
   * parsing the page; other stores get parsed items.
   */
  readonly keepsItemText?: boolean;
  /** Optional: apply the operations in order, all or nothing. */
  applyBatch?(collection: Collection, ops: readonly StoreOp<T>[]): Promise<BatchResult>;
  /**
   * Optional: how many page writes may run at once (default 1). Sync never runs two at once that
   * touch the same item.
   */
  readonly parallelWrites?: number;
}

/** Applies a page through `applyBatch` when the store has it, else call by call. */
export async function applyOps<T extends SyncItem>(
  store: SyncStore<T>,
  collection: Collection,
  ops: readonly StoreOp<T>[],
): Promise<BatchResult> {
  if (ops.length === 0) return { upserted: 0, removed: 0 };
  if (store.applyBatch) return store.applyBatch(collection, ops);
  const result: BatchResult = { upserted: 0, removed: 0 };
  for (const op of ops) {
    if (op.op === 'upsert') {
      await store.upsert(collection, op.item);
      result.upserted++;
    } else if (await store.remove(collection, op.trcid)) {
      result.removed++;
    }
  }
  return result;
}
