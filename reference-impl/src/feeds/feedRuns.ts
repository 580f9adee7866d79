import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { MINUTE, SECOND } from '../config.ts';
import type { ItemWriteDeps } from '../items/writeItem.ts';
import type { Db } from '../storage/db.ts';
import { getOrganisationOntologyVersions } from '../storage/dictionary/getOrganisationOntologyVersions.ts';
import { isUniqueViolation } from '../storage/errors.ts';
import { failStaleFeedRun } from '../storage/feeds/failStaleFeedRun.ts';
import {
  emptyFeedRunReport,
  ONE_RUNNING_RUN_CONSTRAINT,
  type FeedRunReport,
  type FeedRunTrigger,
  type StoredFeedRun,
} from '../storage/feeds/feedRunRow.ts';
import { getFeedRun } from '../storage/feeds/getFeedRun.ts';
import { getRunningFeedRun } from '../storage/feeds/getRunningFeedRun.ts';
import { insertFeedRun } from '../storage/feeds/insertFeedRun.ts';
import { updateFeedRun } from '../storage/feeds/updateFeedRun.ts';
import { collectEntries, type FetchDocument, type RunScope } from './collectEntries.ts';
import type { FeedDefinition } from './feedConfig.ts';
import { FeedFetchError, fetchPartnerDocument } from './fetchPartnerDocument.ts';
import { importEntries } from './importEntries.ts';
import { createEntryValidator, type EntryValidator } from './validateEntry.ts';

// Runs of a feed: fetch → select (size, feedInfoId, externalID) → convert → import, recorded in
// feed_runs as they go. One run per feed at a time across every process (a unique index on the
// running run, DEC-FEED-004). A run whose process died stops writing heartbeats; the next run of
// the feed fails it after STALE_RUN_AFTER so the feed is not blocked for ever.

export const STALE_RUN_AFTER = 15 * MINUTE;
/** Progress is written at least this often while entries import. */
const PROGRESS_EVERY = 1 * SECOND;
/** And a heartbeat at least this often whatever the run is doing (fetching several documents, say). */
const HEARTBEAT_EVERY = 1 * MINUTE;

export class FeedRunInProgressError extends Error {
  readonly runId: string;
  constructor(feedId: string, runId: string) {
    super(`feed ${feedId} has a run in progress: ${runId}`);
    this.name = 'FeedRunInProgressError';
    this.runId = runId;
  }
}

/** A feed whose configuration does not fit the store (its organisation is unknown or another account's). */
class FeedSetupError extends Error {}

export interface FeedRunsDeps {
  db: Db;
  logger: Logger;
  /** Milliseconds since the epoch. */
  now: () => number;
  itemWrites: ItemWriteDeps;
  /** Default: the spec's write schemas. */
  validate?: EntryValidator;
  /** Default: an HTTPS GET trusting the feed's extra CA (fetchPartnerDocument). */
  fetchDocument?: (feed: FeedDefinition) => FetchDocument;
  newId?: () => string;
}

export interface StartedRun {
  /** The run as recorded, in status `running`. */
  run: StoredFeedRun;
  /** Settles (never rejects) with the run as it ended. */
  done: Promise<StoredFeedRun>;
}

export interface FeedRuns {
  /** Records a new run and starts it. Throws FeedRunInProgressError while the feed has one running. */
  start(feed: FeedDefinition, options: { trigger: FeedRunTrigger; scope: RunScope }): Promise<StartedRun>;
  /** Resolves when every run this instance started has ended (for a graceful shutdown). */
  idle(): Promise<void>;
}

export function createFeedRuns(deps: FeedRunsDeps): FeedRuns {
  let validate = deps.validate;
  const fetchFor =
    deps.fetchDocument ?? ((feed: FeedDefinition) => (url: string) => fetchPartnerDocument(url, { ca: feed.ca }));
  const inFlight = new Set<Promise<unknown>>();
  const at = () => new Date(deps.now());

  async function record(feed: FeedDefinition, trigger: FeedRunTrigger, scope: RunScope): Promise<StoredFeedRun> {
    const base = {
      id: (deps.newId ?? randomUUID)(),
      feedId: feed.id,
      accountId: feed.accountId,
      trigger,
      options: scope,
      report: emptyFeedRunReport(),
    };
    await failStaleFeedRun(deps.db, {
      feedId: feed.id,
      heartbeatBefore: new Date(deps.now() - STALE_RUN_AFTER),
      at: at(),
      message: `the run stopped sending progress for ${STALE_RUN_AFTER / MINUTE} minutes (its process ended); failed when a new run started`,
    });
    try {
      return await insertFeedRun(deps.db, { ...base, startedAt: at() });
    } catch (error) {
      if (!isUniqueViolation(error, ONE_RUNNING_RUN_CONSTRAINT)) throw error;
      const running = await getRunningFeedRun(deps.db, { feedId: feed.id });
      throw new FeedRunInProgressError(feed.id, running?.runId ?? 'unknown');
    }
  }

  async function execute(feed: FeedDefinition, run: StoredFeedRun, scope: RunScope): Promise<StoredFeedRun> {
    const report: FeedRunReport = emptyFeedRunReport();
    let lastWrite = deps.now();
    const progress = async (force = false) => {
      if (!force && deps.now() - lastWrite < PROGRESS_EVERY) return;
      lastWrite = deps.now();
      await updateFeedRun(deps.db, { id: run.runId, report, at: at() });
    };
    let status: 'completed' | 'failed' = 'completed';
    const heartbeat = setInterval(() => void progress(true).catch(() => {}), HEARTBEAT_EVERY);
    heartbeat.unref();
    try {
      await assertOwner(feed);
      const collected = await collectEntries(feed, scope, fetchFor(feed));
      report.fetched = collected.entries.length;
      if (collected.notFound !== undefined)
        report.errors.push({
          externalId: collected.notFound,
          message: `no entry with id ${collected.notFound.slice(feed.name.length + 1)} in the feed${scope.feedInfoId === undefined ? '' : ` (sub-feed ${scope.feedInfoId})`}`,
        });
      await progress(true);
      validate ??= createEntryValidator();
      await importEntries(
        { db: deps.db, itemWrites: deps.itemWrites, validate },
        { feed, entries: collected.entries, report, onProgress: progress },
      );
    } catch (error) {
      status = 'failed';
      if (error instanceof FeedFetchError || error instanceof FeedSetupError) {
        report.errors.push({ message: error.message.slice(0, 2000) });
      } else {
        deps.logger.error({ err: error, feedId: feed.id, runId: run.runId }, 'feed run stopped by an unexpected error');
        report.errors.push({ message: `the run stopped: ${(error as Error).message ?? String(error)}`.slice(0, 2000) });
      }
    } finally {
      clearInterval(heartbeat);
    }
    try {
      await updateFeedRun(deps.db, { id: run.runId, report, at: at(), finish: status });
      return (await getFeedRun(deps.db, { feedId: feed.id, runId: run.runId })) ?? run;
    } catch (error) {
      deps.logger.error({ err: error, feedId: feed.id, runId: run.runId }, 'feed run could not record its end');
      return { ...run, status, report, finishedAt: at() };
    }
  }

  // Checked per run, not at start: accounts and organisations are data and may change.
  async function assertOwner(feed: FeedDefinition): Promise<void> {
    const owner = (await getOrganisationOntologyVersions(deps.db, { userorganisations: [feed.userorganisation] })).get(
      feed.userorganisation,
    );
    if (owner === undefined)
      throw new FeedSetupError(
        `the feed's userorganisation ${feed.userorganisation} is not a known organisation; nothing was fetched`,
      );
    if (owner.accountId !== feed.accountId) {
      throw new FeedSetupError(
        `the feed's userorganisation ${feed.userorganisation} belongs to account ${owner.accountId}, not to the feed's account ${feed.accountId}; nothing was fetched`,
      );
    }
  }

  return {
    async start(feed, { trigger, scope }) {
      const run = await record(feed, trigger, scope);
      const done = execute(feed, run, scope);
      inFlight.add(done);
      void done.finally(() => inFlight.delete(done));
      return { run, done };
    },
    async idle() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}
