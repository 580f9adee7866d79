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
export async function refreshRenderings(
  db: Queryable,
  cache: OntologyCache,
  options: { batch?: number } = {},
): Promise<number> {
  const batch = options.batch ?? BATCH;
  let afterId: string | null = null;
  let stored = 0;
  for (;;) {
    const items = await listStaleRenderings(db, { rendererVersion: RENDERER_VERSION, afterId, limit: batch });
    if (items.length === 0) return stored;
    const owners = await cache.ontologiesForOrganisations(items.map((item) => item.userorganisation));
    stored += await storeRenderings(
      db,
      items.map((item) => ({
        id: item.id,
        lastupdated: item.lastupdated,
        rendering: storedRenderingOf(item.entitytype, item.doc, owners.get(item.userorganisation)!),
      })),
    );
    afterId = items.at(-1)!.id;
  }
}

export interface RenderingRefresher {
  /** Asks for a pass soon (a read met stale renderings, an ontology changed); passes never overlap. Until started, nothing. */
  requestRefresh(): void;
  /** Runs the first pass at once; from then on requests are served. */
  start(): void;
  /** Waits for the pass in progress and stops. */
  stop(): Promise<void>;
}

/** Passes start at most this often, so reads that keep meeting stale renderings cannot keep the database busy. */
const MIN_PASS_INTERVAL_MS = 10_000;

/** Runs passes once started and then whenever asked, one at a time and at most one per interval; a failed pass is logged. */
export function createRenderingRefresher(deps: {
  db: Queryable;
  cache: OntologyCache;
  logger: Logger;
  minIntervalMs?: number;
}): RenderingRefresher {
  const minIntervalMs = deps.minIntervalMs ?? MIN_PASS_INTERVAL_MS;
  let started = false;
  let stopped = false;
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let lastStart = -Infinity;

  const pass = async (): Promise<void> => {
    try {
      const stored = await refreshRenderings(deps.db, deps.cache);
      if (stored > 0) deps.logger.info({ stored }, 'item renderings renewed');
    } catch (error) {
      deps.logger.warn(
        { err: error },
        'renewing item renderings failed; the items are rendered live until the next pass',
      );
    }
  };
  const runPass = (): void => {
    timer = undefined;
    if (stopped) return;
    lastStart = performance.now();
    running = pass().finally(() => {
      running = undefined;
    });
  };
  // A request while a pass runs or too soon after one is served by one later pass.
  const request = (): void => {
    if (!started || stopped || timer !== undefined) return;
    const wait = Math.max(0, lastStart + minIntervalMs - performance.now());
    const whenIdle = () => (running === undefined ? runPass() : void running.then(runPass));
    if (wait === 0 && running === undefined) return runPass();
    timer = setTimeout(whenIdle, wait);
    timer.unref();
  };

  return {
    requestRefresh: request,
    start() {
      if (started) return;
      started = true;
      runPass();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
      while (running !== undefined) await running;
    },
  };
}
