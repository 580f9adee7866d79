import type { Queryable } from '../db.ts';
import type { FeedRunReport, FeedRunStatus } from './feedRunRow.ts';

export interface UpdateFeedRunParams {
  id: string;
  report: FeedRunReport;
  at: Date;
  /** `completed` or `failed` ends the run; absent records progress and keeps it running. */
  finish?: Exclude<FeedRunStatus, 'running'>;
}

/**
 * Writes a running run's report and heartbeat, and ends it when `finish` is given. A run that is
 * no longer running (failed as stale by another process) is left alone: answers false then.
 */
export async function updateFeedRun(db: Queryable, params: UpdateFeedRunParams): Promise<boolean> {
  const { rows } = await db.query(
    `UPDATE feed_runs
        SET report = $2::text::jsonb, heartbeat_at = $3::timestamptz,
            status = COALESCE($4::text, status), finished_at = CASE WHEN $4::text IS NULL THEN NULL ELSE $3::timestamptz END
      WHERE id = $1 AND status = 'running'
     RETURNING id`,
    [params.id, JSON.stringify(params.report), params.at, params.finish ?? null],
  );
  return rows.length > 0;
}
