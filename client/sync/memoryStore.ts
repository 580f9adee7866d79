// In-memory mirror: tests, short-lived tools, and the model the SQL store is checked against.
// It keeps each item's JSON text as UTF-8 bytes (a copy of what sync received, else serialised)
// and parses it when read: bytes outside the JS heap cost the garbage collector far less than the
// objects of a parsed item, which matters with a hundred thousand of them. Each read gives a new
// object.

import { parseJson } from '../../spec/json.ts';
import type { BatchResult, StoreOp, SyncStore } from './store.ts';
import { utf8 } from './utf8.ts';
import type { Collection, ContentItem, SyncItem } from './types.ts';

export interface MemoryStore<T extends SyncItem = ContentItem> extends SyncStore<T> {
  applyBatch(collection: Collection, ops: readonly StoreOp<T>[]): Promise<BatchResult>;
  /** The mirrored items of a collection, keyed by trcid, in a new map. */
  snapshot(collection: Collection): Map<string, T>;
}

export function createMemoryStore<T extends SyncItem = ContentItem>(): MemoryStore<T> {
  const items = new Map<Collection, Map<string, Uint8Array>>();
  const marks = new Map<Collection, string>();
  const bucket = (c: Collection) => {
    let b = items.get(c);
    if (!b) items.set(c, (b = new Map()));
    return b;
  };
  const upsertNow = (c: Collection, trcid: string, json: Uint8Array) => void bucket(c).set(trcid, json);
  const read = (json: Uint8Array | undefined) => (json === undefined ? undefined : (parseJson(utf8(json)) as T));
  const serialised = (item: T) => Buffer.from(JSON.stringify(item));

  return {
    keepsItemText: true,
    getMark: async (c) => marks.get(c),
    putMark: async (c, mark) => void marks.set(c, mark),
    upsert: async (c, item) => upsertNow(c, item.trcid, serialised(item)),
    remove: async (c, trcid) => bucket(c).delete(trcid),
    listTrcids: async (c) => [...bucket(c).keys()],
    getItem: async (c, trcid) => read(bucket(c).get(trcid)),
    applyBatch: async (c, ops) => {
      // Synchronous, so all-or-nothing holds trivially.
      const result: BatchResult = { upserted: 0, removed: 0 };
      for (const op of ops) {
        if (op.op === 'upsert') {
          // A copy: the bytes sync hands over are a view into the whole page.
          upsertNow(
            c,
            op.trcid,
            op.json === undefined ? serialised(op.item) : Uint8Array.prototype.slice.call(op.json),
          );
          result.upserted++;
        } else if (bucket(c).delete(op.trcid)) {
          result.removed++;
        }
      }
      return result;
    },
    snapshot: (c) => new Map([...bucket(c)].map(([trcid, json]) => [trcid, read(json)!])),
  };
}
