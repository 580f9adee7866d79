import type { Queryable } from '../db.ts';

/**
 * Deletes finished runs started before `before`, except the latest run of each feed (which stays
 * to be read however old it is). Running runs are never deleted. Returns how many.
 */
export async function pruneFeedRuns(db: Queryable, params: { before: Date }): Promise<number> {
  const { rows } = await db.query(
    `DELETE FROM feed_runs r
      WHERE r.status <> 'running' AND r.started_at < $1
        AND r.id <> (SELECT latest.id FROM feed_runs latest
                      WHERE latest.feed_id = r.feed_id
                      ORDER BY latest.started_at DESC, latest.id DESC
                      LIMIT 1)
      RETURNING r.id`,
    [params.before],
  );
  return rows.length;
}
