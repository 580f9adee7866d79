// The interface's incremental sync procedure (SYNC-001..004, PAGE-001..005):
//
// 1. Start from the saved mark (none on the first run: a full backfill).
// 2. Page with wfstatus=approved,archived,deleted, sortField=lastupdated, sortOrder=ASC, size,
//    lastupdated=<mark> until a short page.
// 3. Upsert approved items by trcid, remove archived and deleted ones, ignore other statuses.
// 4. The new mark is the largest lastupdated received, kept as the service's own string, and is
//    saved only after the whole run succeeded. A failed run leaves the old mark, and the next run
//    repeats the work, which is idempotent.

import { WORKFLOW_STATUS } from '../../generated/constants.ts';
import { parseJson } from '../../spec/json.ts';
import { laterOf } from './instant.ts';
import { utf8 } from './utf8.ts';
import { keysetPages, MAX_PAGE_SIZE, type ItemEntry } from './keyset.ts';
import { applyOps, type BatchResult, type StoreOp, type SyncStore } from './store.ts';
import type { Collection, ItemSource, SyncItem, WfStatus } from './types.ts';

/** Sent as `wfstatus=approved,archived,deleted` (SYNC-002). */
export const SYNC_WFSTATUS = [
  WORKFLOW_STATUS.approved,
  WORKFLOW_STATUS.archived,
  WORKFLOW_STATUS.deleted,
] as const satisfies readonly WfStatus[];
export const DEFAULT_SYNC_SIZE = MAX_PAGE_SIZE;

interface PageCounts {
  fetched: number;
  repeated: number;
  skipped: number;
  mark: string | undefined;
}

export interface SyncProgress {
  collection: Collection;
  pages: number;
  fetched: number;
  upserted: number;
  removed: number;
  /** Items with a status that is not synced (draft, readyforvalidation, rejected). */
  skipped: number;
  /** Boundary items returned again by the inclusive bound and not re-applied. */
  repeated: number;
  /** Largest lastupdated received so far (not saved until the run ends). */
  mark: string | undefined;
}

export interface SyncSummary extends SyncProgress {
  /** The mark the run started from. */
  previousMark: string | undefined;
}

export interface SyncOptions {
  /** Page size, 2…2000. Default 2000. */
  size?: number;
  onProgress?: (progress: SyncProgress) => void;
  signal?: AbortSignal;
}

// @implements SYNC-003, SYNC-004
export async function syncItems<T extends SyncItem>(
  source: ItemSource<T>,
  collection: Collection,
  store: SyncStore<T>,
  options: SyncOptions = {},
): Promise<SyncSummary> {
  const size = options.size ?? DEFAULT_SYNC_SIZE;
  const previousMark = await store.getMark(collection);
  const progress: SyncProgress = {
    collection,
    pages: 0,
    fetched: 0,
    upserted: 0,
    removed: 0,
    skipped: 0,
    repeated: 0,
    mark: previousMark,
  };

  // A page's store write may still run when the next page's starts (as many as the store allows),
  // unless the two share an item: then the earlier one finishes first, so the later version lands last.
  const parallelWrites = Math.max(1, store.parallelWrites ?? 1);
  const writing: Array<{ trcids: Set<string>; write: Promise<BatchResult>; page: PageCounts }> = [];
  const settleOldest = async () => {
    const { write, page } = writing.shift()!;
    const applied = await write;
    progress.pages++;
    progress.fetched += page.fetched;
    progress.repeated += page.repeated;
    progress.skipped += page.skipped;
    progress.upserted += applied.upserted;
    progress.removed += applied.removed;
    progress.mark = laterOf(progress.mark, page.mark);
    options.onProgress?.({ ...progress });
  };
  try {
    // A store that keeps item text gets each item's text as received, and the page is not parsed.
    const entries = store.keepsItemText === true;
    const paging = { size, from: previousMark, signal: options.signal };
    const pages = entries
      ? keysetPages(source, collection, SYNC_WFSTATUS, { ...paging, read: 'entries' })
      : keysetPages(source, collection, SYNC_WFSTATUS, paging);
    for await (const page of pages) {
      const ops: StoreOp<T>[] = [];
      let skipped = 0;
      for (const item of page.fresh) {
        if (item.wfstatus === WORKFLOW_STATUS.approved)
          ops.push(entries ? upsertOfEntry<T>(item as ItemEntry) : upsertOf(item as T));
        else if (item.wfstatus === WORKFLOW_STATUS.archived || item.wfstatus === WORKFLOW_STATUS.deleted)
          ops.push({ op: 'remove', trcid: item.trcid });
        else skipped++;
      }
      const trcids = new Set(page.fresh.map((item) => item.trcid));
      const lastShared = writing.findLastIndex(
        (w) => w.trcids.size > 0 && page.fresh.some((it) => w.trcids.has(it.trcid)),
      );
      for (let i = 0; i <= lastShared; i++) await settleOldest();
      while (writing.length >= parallelWrites) await settleOldest();
      const write = applyOps(store, collection, ops);
      write.catch(() => {}); // awaited in settleOldest, or after a failure below
      writing.push({
        trcids,
        write,
        page: {
          fetched: page.items.length,
          repeated: page.items.length - page.fresh.length,
          skipped,
          mark: page.mark,
        },
      });
    }
    while (writing.length > 0) await settleOldest();
  } catch (error) {
    // No write is left running behind a failed run.
    await Promise.allSettled(writing.map((w) => w.write));
    throw error;
  }

  if (progress.mark !== undefined && progress.mark !== previousMark) await store.putMark(collection, progress.mark);
  return { ...progress, previousMark };
}

const upsertOf = <T extends SyncItem>(item: T): StoreOp<T> => ({
  op: 'upsert',
  trcid: item.trcid,
  lastupdated: item.lastupdated,
  wfstatus: item.wfstatus,
  item,
});

/** The upsert of an entry: its bytes as received, and the item parsed from them only when read. */
function upsertOfEntry<T extends SyncItem>(entry: ItemEntry): StoreOp<T> {
  let parsed: T | undefined;
  return {
    op: 'upsert',
    trcid: entry.trcid,
    lastupdated: entry.lastupdated,
    wfstatus: entry.wfstatus,
    json: entry.json,
    get item() {
      return (parsed ??= parseJson(utf8(entry.json)) as T);
    },
  };
}
