import type { Queryable } from '../db.ts';

export interface FailStaleFeedRunParams {
  feedId: string;
  /** A running run whose last heartbeat is older than this is abandoned. */
  heartbeatBefore: Date;
  at: Date;
  message: string;
}

/**
 * Ends as `failed` the feed's running run whose process stopped writing progress (it crashed or
 * was killed mid-run), with `message` added to its errors, so the feed can run again. Answers
 * whether there was one.
 */
export async function failStaleFeedRun(db: Queryable, params: FailStaleFeedRunParams): Promise<boolean> {
  const { rows } = await db.query(
    `UPDATE feed_runs
        SET status = 'failed', finished_at = $3,
            report = jsonb_set(report, '{errors}', COALESCE(report->'errors', '[]'::jsonb) || jsonb_build_array(jsonb_build_object('message', $4::text)))
      WHERE feed_id = $1 AND status = 'running' AND heartbeat_at < $2
     RETURNING id`,
    [params.feedId, params.heartbeatBefore, params.at, params.message],
  );
  return rows.length > 0;
}
