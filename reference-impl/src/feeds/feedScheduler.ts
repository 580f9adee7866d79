import { createHash } from 'node:crypto';
import { Cron } from 'croner';
import type { Logger } from 'pino';
import { HOUR, MINUTE } from '../config.ts';
import type { Queryable } from '../storage/db.ts';
import type { StoredFeedRun } from '../storage/feeds/feedRunRow.ts';
import { getLastFeedRunStart } from '../storage/feeds/getLastFeedRunStart.ts';
import type { FeedDefinition } from './feedConfig.ts';
import { FeedRunInProgressError, type FeedRuns } from './feedRuns.ts';

// Polls every feed about every 4 hours (FEED-008). Each feed gets its own fixed minute in the
// 4-hour cycle (from a hash of its id), so feeds do not all fire at once, and each poll waits a
// further random jitter. Several instances may share one database: a poll is skipped while the
// feed has a run in progress (DEC-FEED-004) or when another instance's scheduled run started less
// than half a cycle ago.

export interface FeedSchedulerOptions {
  feeds: readonly FeedDefinition[];
  runs: FeedRuns;
  db: Queryable;
  logger: Logger;
  /** Milliseconds since the epoch. */
  now: () => number;
  /** Hours between polls of a feed; divides 24. Default 4. */
  everyHours?: number;
  /** Upper bound of the random wait before each poll. Default 10 minutes. */
  maxJitterMs?: number;
  random?: () => number;
}

export type PollOutcome =
  { kind: 'ran'; run: StoredFeedRun } | { kind: 'busy'; runId: string } | { kind: 'recent'; startedAt: Date };

export interface FeedScheduler {
  start(): void;
  /** Stops polling and waits for the runs this scheduler started. */
  stop(): Promise<void>;
  /** The next poll of each feed, before jitter (null when stopped). */
  nextPolls(): Map<string, Date | null>;
  /** What each scheduled tick does, without the jitter. */
  poll(feed: FeedDefinition): Promise<PollOutcome>;
}

const DIVISORS_OF_A_DAY = [1, 2, 3, 4, 6, 8, 12, 24];
const PLACEHOLDER_HOST = /(^|\.)(invalid|example|test|localhost)$|(^|\.)example\.(com|net|org)$/i;

export function createFeedScheduler(options: FeedSchedulerOptions): FeedScheduler {
  const everyHours = options.everyHours ?? 4;
  if (!DIVISORS_OF_A_DAY.includes(everyHours))
    throw new RangeError(`everyHours must divide 24 (received: ${everyHours})`);
  const maxJitterMs = options.maxJitterMs ?? 10 * MINUTE;
  const random = options.random ?? Math.random;
  const { logger } = options;
  const jobs = new Map<string, Cron>();
  // Jitter waits, with the function that ends each early (on stop).
  const waits = new Map<NodeJS.Timeout, () => void>();
  const ticks = new Set<Promise<unknown>>();
  let stopped = false;

  async function poll(feed: FeedDefinition): Promise<PollOutcome> {
    const last = await getLastFeedRunStart(options.db, { feedId: feed.id, trigger: 'schedule' });
    if (last !== null && options.now() - last.getTime() < (everyHours * HOUR) / 2)
      return { kind: 'recent', startedAt: last };
    try {
      const { done } = await options.runs.start(feed, { trigger: 'schedule', scope: {} });
      return { kind: 'ran', run: await done };
    } catch (error) {
      if (error instanceof FeedRunInProgressError) return { kind: 'busy', runId: error.runId };
      throw error;
    }
  }

  async function tick(feed: FeedDefinition): Promise<void> {
    const jitter = Math.floor(random() * maxJitterMs);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        waits.delete(timer);
        resolve();
      }, jitter);
      waits.set(timer, resolve);
    });
    if (stopped) return;
    try {
      const outcome = await poll(feed);
      if (outcome.kind === 'busy')
        logger.info({ feedId: feed.id, runId: outcome.runId }, `feed ${feed.id}: poll skipped, a run is in progress`);
      else if (outcome.kind === 'recent')
        logger.debug(
          { feedId: feed.id },
          `feed ${feed.id}: poll skipped, a scheduled run started at ${outcome.startedAt.toISOString()}`,
        );
      else if (outcome.run.status === 'failed') {
        logger.warn(
          { feedId: feed.id, runId: outcome.run.runId, errors: outcome.run.report.errors.slice(0, 3) },
          `feed ${feed.id}: scheduled run failed: ${outcome.run.report.errors.at(-1)?.message ?? 'no reason recorded'}`,
        );
      } else {
        const { report } = outcome.run;
        logger.info(
          {
            feedId: feed.id,
            runId: outcome.run.runId,
            fetched: report.fetched,
            imported: report.imported,
            skipped: report.skipped,
          },
          `feed ${feed.id}: scheduled run completed`,
        );
      }
    } catch (error) {
      logger.error({ err: error, feedId: feed.id }, `feed ${feed.id}: scheduled poll failed`);
    }
  }

  return {
    start() {
      if (jobs.size > 0) return;
      stopped = false;
      for (const feed of options.feeds) {
        const offset = minuteInCycle(feed.id, everyHours);
        const pattern = `0 ${offset % 60} ${Math.floor(offset / 60)}-23/${everyHours} * * *`;
        const job = new Cron(pattern, { timezone: 'UTC', protect: true, unref: true }, () => {
          const running = tick(feed);
          ticks.add(running);
          return running.finally(() => ticks.delete(running));
        });
        jobs.set(feed.id, job);
        const host = new URL(feed.url).hostname;
        if (PLACEHOLDER_HOST.test(host)) {
          logger.warn(
            { feedId: feed.id, url: feed.url },
            `feed ${feed.id} points at ${host}, a placeholder host: its runs will fail until FEEDS_FILE names the partner's real endpoint`,
          );
        }
      }
      logger.info(
        { feeds: options.feeds.map((f) => f.id), everyHours },
        `feed scheduler started: ${options.feeds.length} feed(s), each polled every ${everyHours} h`,
      );
    },

    async stop() {
      stopped = true;
      for (const job of jobs.values()) job.stop();
      jobs.clear();
      for (const [timer, release] of waits) {
        clearTimeout(timer);
        release();
      }
      waits.clear();
      await Promise.allSettled([...ticks]);
      await options.runs.idle();
    },

    nextPolls() {
      return new Map(options.feeds.map((feed) => [feed.id, jobs.get(feed.id)?.nextRun() ?? null]));
    },

    poll,
  };
}

/** A stable minute in the cycle for this feed: spreads feeds, same on every instance. */
export function minuteInCycle(feedId: string, everyHours: number): number {
  return createHash('sha256').update(feedId).digest().readUInt32BE(0) % (everyHours * 60);
}
