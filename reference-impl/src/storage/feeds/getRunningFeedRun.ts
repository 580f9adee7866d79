import type { Queryable } from '../db.ts';
import { FEED_RUN_COLUMNS, type StoredFeedRun } from './feedRunRow.ts';

/** The run of the feed in status `running`, if any (there is at most one). */
export async function getRunningFeedRun(db: Queryable, params: { feedId: string }): Promise<StoredFeedRun | null> {
  const { rows } = await db.query<StoredFeedRun>(
    `SELECT ${FEED_RUN_COLUMNS} FROM feed_runs WHERE feed_id = $1 AND status = 'running'`,
    [params.feedId],
  );
  return rows[0] ?? null;
}
