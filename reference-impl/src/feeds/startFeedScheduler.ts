import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { sharedOntologyCache } from '../items/sharedOntologyCache.ts';
import type { Db } from '../storage/db.ts';
import type { ItemChangeRecorder } from '../webhooks/itemChange.ts';
import { loadFeeds } from './feedConfig.ts';
import { createFeedRuns } from './feedRuns.ts';
import { createFeedScheduler, type FeedScheduler } from './feedScheduler.ts';

/** What the server hands the feed poller: its storage, clock, logger, outbox seam and shutdown hook. */
export interface FeedSchedulerHost {
  config: Config;
  db: Db;
  logger: Logger;
  now: () => number;
  /** The same recorder as the app's, so scheduled imports write outbox events like any other write. */
  recordItemChange: ItemChangeRecorder;
  lifecycle: { onStop(name: string, stop: () => Promise<void> | void): void };
}

/** Loads the feeds (FEEDS_FILE), starts polling them (FEED-008) and registers the graceful stop. */
export function startFeedScheduler(host: FeedSchedulerHost): FeedScheduler {
  const runs = createFeedRuns({
    db: host.db, logger: host.logger, now: host.now,
    itemWrites: { recordItemChange: host.recordItemChange, ontologies: sharedOntologyCache(host.db) },
  });
  const scheduler = createFeedScheduler({ feeds: loadFeeds(host.config.feedsFile), runs, db: host.db, logger: host.logger, now: host.now });
  scheduler.start();
  host.lifecycle.onStop('feed scheduler', () => scheduler.stop());
  return scheduler;
}
