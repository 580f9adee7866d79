import type { OntologyCache } from '../dictionary/ontologyCache.ts';
import type { Logger } from '../logger.ts';
import type { Queryable } from '../storage/db.ts';
import { listStaleRenderings, storeRenderings } from '../storage/items/staleRenderings.ts';
import { RENDERER_VERSION, storedRenderingOf } from './renderItem.ts';

// Renews the stored renderings of items (migration 007) that are missing or stale: after an
// ontology change, a new renderer version, or items written without one (bulk loads). Until then
// those items are rendered live on every read, which is correct but slower; this brings lists
// back to reading stored JSON. Several instances may renew at once: a renewal is idempotent.

const BATCH = 500;

/** One pass over every item in id order; returns how many renderings were stored. */
export async function refreshRenderings(db: Queryable, cache: OntologyCache, options: { batch?: number } = {}): Promise<number> {
  const batch = options.batch ?? BATCH;
  let afterId: string | null = null;
  let stored = 0;
  for (;;) {
    const items = await listStaleRenderings(db, { rendererVersion: RENDERER_VERSION, afterId, limit: batch });
    if (items.length === 0) return stored;
    const owners = await cache.ontologiesForOrganisations(items.map((item) => item.userorganisation));
    stored += await storeRenderings(db, items.map((item) => ({
      id: item.id,
      lastupdated: item.lastupdated,
      rendering: storedRenderingOf(item.entitytype, item.doc, owners.get(item.userorganisation)!),
    })));
    afterId = items.at(-1)!.id;
  }
}

export interface RenderingRefresher {
  /** Asks for a pass soon (a read met stale renderings, an ontology changed); passes never overlap. */
  requestRefresh(): void;
  /** Waits for the pass in progress and stops. */
  stop(): Promise<void>;
}

/** Runs a pass at once and then whenever asked, one at a time; a failed pass is logged. */
export function startRenderingRefresher(deps: { db: Queryable; cache: OntologyCache; logger: Logger }): RenderingRefresher {
  let stopped = false;
  let running: Promise<void> | undefined;
  let again = false;

  const run = (): void => {
    if (stopped) return;
    if (running !== undefined) {
      again = true;
      return;
    }
    running = (async () => {
      try {
        const stored = await refreshRenderings(deps.db, deps.cache);
        if (stored > 0) deps.logger.info({ stored }, 'item renderings renewed');
      } catch (error) {
        deps.logger.warn({ err: error }, 'renewing item renderings failed; the items are rendered live until the next pass');
      }
    })().finally(() => {
      running = undefined;
      if (again) {
        again = false;
        run();
      }
    });
  };
  run();

  return {
    requestRefresh: run,
    async stop() {
      stopped = true;
      while (running !== undefined) await running;
    },
  };
}

/** For apps without background services (tests): asking does nothing. */
export const NO_RENDERING_REFRESH: Pick<RenderingRefresher, 'requestRefresh'> = { requestRefresh() {} };
