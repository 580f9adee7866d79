// Reconciliation (SYNC-006): removals reach the incremental sync only when the token may see
// archived and deleted items. Occasionally list the trcid of every published item and remove
// the local items missing from that list.

import { WORKFLOW_STATUS } from '../../generated/constants.ts';
import { keysetPages } from './keyset.ts';
import { applyOps, type SyncStore } from './store.ts';
import { DEFAULT_SYNC_SIZE } from './syncItems.ts';
import type { Collection, ItemSource, SyncItem } from './types.ts';

export interface ReconcileOptions {
  /** Page size, 2…2000. Default 2000. */
  size?: number;
  signal?: AbortSignal;
  /** Report what would be removed without removing it. */
  dryRun?: boolean;
}

export interface ReconcileSummary {
  collection: Collection;
  pages: number;
  /** Published items the service listed. */
  published: number;
  /** Local items before the run. */
  local: number;
  /** Local items not published any more (removed unless dryRun). */
  missing: string[];
  removed: number;
}

export async function reconcile<T extends SyncItem>(
  source: ItemSource<T>,
  collection: Collection,
  store: SyncStore<T>,
  options: ReconcileOptions = {},
): Promise<ReconcileSummary> {
  const size = options.size ?? DEFAULT_SYNC_SIZE;
  // Local snapshot first: an item a concurrent sync adds after it is never a removal candidate,
  // even if it was approved after the listing below passed its place.
  const localTrcids = await store.listTrcids(collection);
  const published = new Set<string>();
  let pages = 0;
  // Keyset paging over approved items only: an item changed during the listing moves to the
  // end of the order and is still seen before the short page ends the loop.
  for await (const page of keysetPages(source, collection, [WORKFLOW_STATUS.approved], {
    size,
    signal: options.signal,
  })) {
    pages++;
    for (const item of page.items)
      if (item.wfstatus === undefined || item.wfstatus === WORKFLOW_STATUS.approved) published.add(item.trcid);
  }
  const missing = localTrcids.filter((trcid) => !published.has(trcid));
  options.signal?.throwIfAborted();
  const removed = options.dryRun
    ? 0
    : (
        await applyOps(
          store,
          collection,
          missing.map((trcid) => ({ op: 'remove' as const, trcid })),
        )
      ).removed;
  return { collection, pages, published: published.size, local: localTrcids.length, missing, removed };
}
