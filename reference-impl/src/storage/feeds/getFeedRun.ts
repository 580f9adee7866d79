import { isUuid } from '../items/itemRow.ts';
import type { Queryable } from '../db.ts';
import { FEED_RUN_COLUMNS, type StoredFeedRun } from './feedRunRow.ts';

/** The run `runId` of feed `feedId`; null when there is none (or the id is no UUID). */
export async function getFeedRun(
  db: Queryable,
  params: { feedId: string; runId: string },
): Promise<StoredFeedRun | null> {
  if (!isUuid(params.runId)) return null;
  const { rows } = await db.query<StoredFeedRun>(
    `SELECT ${FEED_RUN_COLUMNS} FROM feed_runs WHERE id = $1 AND feed_id = $2`,
    [params.runId, params.feedId],
  );
  return rows[0] ?? null;
}
