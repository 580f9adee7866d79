// How far a collection's sync has come, for the progress bar. The interface gives no total, but
// the sync walks `lastupdated` in ascending order, and one `sortOrder=DESC&size=1` request before
// the walk tells where it will end. So the bar measures the share of the lastupdated range
// covered, not a share of the items: a burst of writes in one hour fills little of a year's bar.

import { parseInstant } from '../sync/instant.ts';

export interface LastUpdatedRange {
  /** Where the walk starts: the saved mark, or on a backfill the first page's first item (undefined until it arrives). */
  start: string | undefined;
  /** The newest item's lastupdated before the walk (undefined: the collection was empty). */
  end: string | undefined;
}

/** Milliseconds from `a` to `b`, sub-millisecond digits included (epoch ms plus nanos would lose them). */
function span(a: string, b: string): number {
  const x = parseInstant(a);
  const y = parseInstant(b);
  return y.ms - x.ms + (y.subMsNanos - x.subMsNanos) / 1_000_000;
}

/**
 * The covered share 0…1 of `range` once the walk has reached `reached` (the lastupdated of the
 * last item fetched). Items written during the run may lie past `end`: clamped at 1.
 */
export function coverage(range: LastUpdatedRange, reached: string | undefined): number {
  if (range.end === undefined) return 1; // nothing to walk
  if (range.start === undefined || reached === undefined) return 0;
  const total = span(range.start, range.end);
  const done = span(range.start, reached);
  if (total <= 0) return done >= 0 ? 1 : 0; // no changes since the mark: the boundary item ends it
  return Math.min(1, Math.max(0, done / total));
}

/** `[##########--------------]  41%`: floored, so 100% only when the end is reached. */
export function renderBar(fraction: number, width = 24): string {
  const f = Math.min(1, Math.max(0, fraction));
  const filled = Math.floor(f * width);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${`${Math.floor(f * 100)}%`.padStart(4)}`;
}
