import type { components } from '../../../generated/types.ts';
import { formatTimestamp } from '../domain/timestamps.ts';
import type { StoredFeedRun } from '../storage/feeds/feedRunRow.ts';

/** A run as the FeedRun schema shows it. */
export function renderFeedRun(run: StoredFeedRun): components['schemas']['FeedRun'] {
  const { report } = run;
  return {
    runId: run.runId,
    feedId: run.feedId,
    status: run.status,
    startedAt: formatTimestamp(run.startedAt),
    ...(run.finishedAt === null ? {} : { finishedAt: formatTimestamp(run.finishedAt) }),
    fetched: report.fetched,
    converted: report.converted,
    imported: {
      created: report.imported.created,
      updated: report.imported.updated,
      unchanged: report.imported.unchanged,
    },
    skipped: report.skipped,
    unmappedCategories: report.unmappedCategories,
    errors: report.errors,
  };
}
