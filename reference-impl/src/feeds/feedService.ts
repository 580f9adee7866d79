import type { Logger } from 'pino';
import type { ItemWriteDeps } from '../items/writeItem.ts';
import type { Db } from '../storage/db.ts';
import type { StoredFeedRun } from '../storage/feeds/feedRunRow.ts';
import { getFeedRun } from '../storage/feeds/getFeedRun.ts';
import { loadFeeds, type FeedDefinition } from './feedConfig.ts';
import { createFeedRuns, type FeedRuns } from './feedRuns.ts';

/**
 * The configured feeds and the one FeedRuns of a service: the feed routes and the scheduler share
 * it, so a run started by either is seen by both and awaited at shutdown.
 */
export interface FeedService {
  feeds: readonly FeedDefinition[];
  runs: FeedRuns;
  /** The run `runId` of feed `feedId`, finished or not; null when there is none. */
  findRun(feedId: string, runId: string): Promise<StoredFeedRun | null>;
}

export interface FeedServiceDeps {
  /** FEEDS_FILE; undefined: the shipped demo file. */
  feedsFile: string | undefined;
  db: Db;
  logger: Logger;
  now: () => number;
  /** The same as the app's item writes: imports write outbox events like any other write (FEED-008, HOOK-002). */
  itemWrites: ItemWriteDeps;
}

/** Loads the feeds file once and makes the runs that import from them. */
export function createFeedService(deps: FeedServiceDeps): FeedService {
  return {
    feeds: loadFeeds(deps.feedsFile),
    runs: createFeedRuns({
      db: deps.db,
      logger: deps.logger,
      now: deps.now,
      itemWrites: deps.itemWrites,
    }),
    findRun: (feedId, runId) => getFeedRun(deps.db, { feedId, runId }),
  };
}
