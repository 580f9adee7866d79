import type { Logger } from 'pino';
import type { Db } from '../storage/db.ts';
import { createFeedScheduler, type FeedScheduler } from './feedScheduler.ts';
import type { FeedService } from './feedService.ts';

/** What the server hands the feed poller: the service's feeds and runs, storage, clock, logger and shutdown hook. */
export interface FeedSchedulerHost {
  /** The same feeds and runs as the feed routes', so a run started by either blocks the other's (DEC-FEED-004). */
  feedService: FeedService;
  db: Db;
  logger: Logger;
  now: () => number;
  lifecycle: { onStop(name: string, stop: () => Promise<void> | void): void };
}

/** Starts polling the feeds (FEED-008) and registers the graceful stop. */
export function startFeedScheduler(host: FeedSchedulerHost): FeedScheduler {
  const { feeds, runs } = host.feedService;
  const scheduler = createFeedScheduler({ feeds, runs, db: host.db, logger: host.logger, now: host.now });
  scheduler.start();
  host.lifecycle.onStop('feed scheduler', () => scheduler.stop());
  return scheduler;
}
