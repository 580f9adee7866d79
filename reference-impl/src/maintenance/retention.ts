import type { AssetFileStore } from '../assets/fileStore.ts';
import { DAY, HOUR } from '../config.ts';
import type { Logger } from '../logger.ts';
import { REFRESH_TOKEN_MS } from '../sessions/tokenPair.ts';
import type { Queryable } from '../storage/db.ts';
import { pruneFeedRuns } from '../storage/feeds/pruneFeedRuns.ts';
import { pruneSessions } from '../storage/sessions/pruneSessions.ts';
import { pruneSpentRefreshTokens } from '../storage/sessions/pruneSpentRefreshTokens.ts';
import { pruneDeliveries } from '../storage/webhooks/pruneDeliveries.ts';

// Retention (DEC-MISC-004): what the service deletes by itself, and when. Every instance runs the
// same pass; the deletes are idempotent, so instances need no coordination.

/** A session is deleted this long after its refresh token expired or it was revoked. */
const SESSION_GRACE_MS = 1 * DAY;
/** A spent refresh token is forgotten once it would have expired anyway, plus the same grace. */
const SPENT_REFRESH_TOKEN_RETENTION_MS = REFRESH_TOKEN_MS + SESSION_GRACE_MS;
/** Finished feed runs are kept this long; the latest run of each feed is always kept. */
const FEED_RUN_RETENTION_MS = 30 * DAY;
/** Settled webhook deliveries (and their attempts) stay in the delivery log this long (DEC-HOOK-017). */
const WEBHOOK_DELIVERY_RETENTION_MS = 7 * DAY;
/** A staged upload untouched this long belongs to a process that died mid-upload. */
const STAGED_UPLOAD_MAX_AGE_MS = 1 * HOUR;
/** One pass at start, then one this often. */
const RETENTION_EVERY_MS = 1 * HOUR;

export interface RetentionDeps {
  db: Queryable;
  assets: AssetFileStore;
  now: () => number;
}

export interface RetentionResult {
  sessions: number;
  spentRefreshTokens: number;
  feedRuns: number;
  webhookDeliveries: number;
  stagedUploads: number;
}

/** One pass of every prune, at `deps.now()`. */
export async function runRetention(deps: RetentionDeps): Promise<RetentionResult> {
  const now = deps.now();
  const before = (ms: number) => new Date(now - ms);
  return {
    sessions: await pruneSessions(deps.db, { before: before(SESSION_GRACE_MS) }),
    spentRefreshTokens: await pruneSpentRefreshTokens(deps.db, { before: before(SPENT_REFRESH_TOKEN_RETENTION_MS) }),
    feedRuns: await pruneFeedRuns(deps.db, { before: before(FEED_RUN_RETENTION_MS) }),
    webhookDeliveries: await pruneDeliveries(deps.db, { before: before(WEBHOOK_DELIVERY_RETENTION_MS) }),
    stagedUploads: await deps.assets.pruneStaged(before(STAGED_UPLOAD_MAX_AGE_MS)),
  };
}

export interface RetentionJob {
  /** Stops the timer and waits for a pass in progress. */
  stop(): Promise<void>;
}

/**
 * Runs `runRetention` at once and then every `everyMs`. A failed pass (storage away) is logged
 * and retried at the next tick; pruned rows and files are logged when there were any.
 */
export function startRetentionJob(deps: RetentionDeps & { logger: Logger; everyMs?: number }): RetentionJob {
  const everyMs = deps.everyMs ?? RETENTION_EVERY_MS;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();

  const pass = async () => {
    try {
      const result = await runRetention(deps);
      if (Object.values(result).some((count) => count > 0))
        deps.logger.info({ pruned: result }, 'retention: old rows and files pruned');
    } catch (error) {
      deps.logger.warn({ err: error }, 'retention pass failed; retrying at the next one');
    }
  };
  const tick = () => {
    if (stopped) return;
    current = pass().finally(() => {
      if (stopped) return;
      timer = setTimeout(tick, everyMs);
      timer.unref();
    });
  };
  tick();

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await current;
    },
  };
}
