// A run of an inbound feed as stored in feed_runs (005_feeds.sql).

export type FeedRunStatus = 'running' | 'completed' | 'failed';
export type FeedRunTrigger = 'manual' | 'schedule';

/** What the run did so far: the counters and lists of the FeedRun schema. */
export interface FeedRunReport {
  fetched: number;
  converted: number;
  imported: { created: number; updated: number; unchanged: number };
  skipped: number;
  unmappedCategories: Array<{ externalId: string; value: string }>;
  errors: Array<{ externalId?: string; message: string }>;
}

/** The options a run was asked with (`fetchAndConvertOnce` query). */
export interface FeedRunOptions {
  size?: number;
  feedInfoId?: string;
  externalID?: string;
}

export interface StoredFeedRun {
  runId: string;
  feedId: string;
  accountId: string;
  status: FeedRunStatus;
  trigger: FeedRunTrigger;
  options: FeedRunOptions;
  startedAt: Date;
  heartbeatAt: Date;
  finishedAt: Date | null;
  report: FeedRunReport;
}

export const FEED_RUN_COLUMNS = `id AS "runId", feed_id AS "feedId", account_id AS "accountId", status, trigger, options,
  started_at AS "startedAt", heartbeat_at AS "heartbeatAt", finished_at AS "finishedAt", report`;

/** Unique key a second running run of one feed collides on (DEC-FEED-004). */
export const ONE_RUNNING_RUN_CONSTRAINT = 'feed_runs_one_running_key';

export function emptyFeedRunReport(): FeedRunReport {
  return {
    fetched: 0,
    converted: 0,
    imported: { created: 0, updated: 0, unchanged: 0 },
    skipped: 0,
    unmappedCategories: [],
    errors: [],
  };
}
