// In-memory mirror: tests, short-lived tools, and the model the SQL store is checked against.
// It keeps the very objects it is given and hands them out again (a copy per item costs more than
// parsing it): treat them as read-only.

import type { BatchResult, StoreOp, SyncStore } from './store.ts';
import type { Collection, ContentItem, SyncItem } from './types.ts';

export interface MemoryStore<T extends SyncItem = ContentItem> extends SyncStore<T> {
  applyBatch(collection: Collection, ops: readonly StoreOp<T>[]): Promise<BatchResult>;
  /** The mirrored items of a collection, keyed by trcid, in a new map. */
  snapshot(collection: Collection): Map<string, T>;
}

export function createMemoryStore<T extends SyncItem = ContentItem>(): MemoryStore<T> {
  const items = new Map<Collection, Map<string, T>>();
  const marks = new Map<Collection, string>();
  const bucket = (c: Collection) => {
    let b = items.get(c);
    if (!b) items.set(c, (b = new Map()));
    return b;
  };
  const upsertNow = (c: Collection, item: T) => void bucket(c).set(item.trcid, item);

  return {
    getMark: async (c) => marks.get(c),
    putMark: async (c, mark) => void marks.set(c, mark),
    upsert: async (c, item) => upsertNow(c, item),
    remove: async (c, trcid) => bucket(c).delete(trcid),
    listTrcids: async (c) => [...bucket(c).keys()],
    getItem: async (c, trcid) => bucket(c).get(trcid),
    applyBatch: async (c, ops) => {
      // Synchronous, so all-or-nothing holds trivially.
      const result: BatchResult = { upserted: 0, removed: 0 };
      for (const op of ops) {
        if (op.op === 'upsert') {
          upsertNow(c, op.item);
          result.upserted++;
        } else if (bucket(c).delete(op.trcid)) {
          result.removed++;
        }
      }
      return result;
    },
    snapshot: (c) => new Map(bucket(c)),
  };
}
