import type { Queryable } from '../db.ts';
import {
  FEED_RUN_COLUMNS,
  type FeedRunOptions,
  type FeedRunReport,
  type FeedRunTrigger,
  type StoredFeedRun,
} from './feedRunRow.ts';

export interface InsertFeedRunParams {
  id: string;
  feedId: string;
  accountId: string;
  trigger: FeedRunTrigger;
  options: FeedRunOptions;
  startedAt: Date;
  report: FeedRunReport;
}

/**
 * Stores a new run in status `running`. Throws UniqueViolationError (constraint
 * ONE_RUNNING_RUN_CONSTRAINT) while another run of the feed is running.
 */
export async function insertFeedRun(db: Queryable, params: InsertFeedRunParams): Promise<StoredFeedRun> {
  const { rows } = await db.query<StoredFeedRun>(
    `INSERT INTO feed_runs (id, feed_id, account_id, status, trigger, options, started_at, heartbeat_at, report)
     VALUES ($1, $2, $3, 'running', $4, $5::text::jsonb, $6, $6, $7::text::jsonb)
     RETURNING ${FEED_RUN_COLUMNS}`,
    [
      params.id,
      params.feedId,
      params.accountId,
      params.trigger,
      JSON.stringify(params.options),
      params.startedAt,
      JSON.stringify(params.report),
    ],
  );
  return rows[0]!;
}
