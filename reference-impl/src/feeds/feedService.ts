import type { Logger } from 'pino';
import { sharedOntologyCache } from '../items/sharedOntologyCache.ts';
import type { Db } from '../storage/db.ts';
import type { ItemChangeRecorder } from '../webhooks/itemChange.ts';
import { loadFeeds, type FeedDefinition } from './feedConfig.ts';
import { createFeedRuns, type FeedRuns } from './feedRuns.ts';

/**
 * The configured feeds and the one FeedRuns of a service: the feed routes and the scheduler share
 * it, so a run started by either is seen by both and awaited at shutdown.
 */
export interface FeedService {
  feeds: readonly FeedDefinition[];
  runs: FeedRuns;
}

export interface FeedServiceDeps {
  /** FEEDS_FILE; undefined: the shipped demo file. */
  feedsFile: string | undefined;
  db: Db;
  logger: Logger;
  now: () => number;
  /** The same recorder as the app's, so imports write outbox events like any other write (FEED-008, HOOK-002). */
  recordItemChange: ItemChangeRecorder;
}

/** Loads the feeds file once and makes the runs that import from them. */
export function createFeedService(deps: FeedServiceDeps): FeedService {
  return {
    feeds: loadFeeds(deps.feedsFile),
    runs: createFeedRuns({
      db: deps.db,
      logger: deps.logger,
      now: deps.now,
      itemWrites: { recordItemChange: deps.recordItemChange, ontologies: sharedOntologyCache(deps.db) },
    }),
  };
}
