import type { Queryable } from '../db.ts';
import type { FeedRunTrigger } from './feedRunRow.ts';

/** When the feed's latest run of this trigger started; null when it never ran so. */
export async function getLastFeedRunStart(
  db: Queryable,
  params: { feedId: string; trigger: FeedRunTrigger },
): Promise<Date | null> {
  const { rows } = await db.query<{ startedAt: Date | null }>(
    `SELECT max(started_at) AS "startedAt" FROM feed_runs WHERE feed_id = $1 AND trigger = $2`,
    [params.feedId, params.trigger],
  );
  return rows[0]?.startedAt ?? null;
}
