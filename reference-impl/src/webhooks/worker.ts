// @implements HOOK-007, HOOK-018
// The delivery worker (HOOK-002, HOOK-007, HOOK-010..013, HOOK-018..020, DEC-HOOK-005/006): turns
// queued changes into deliveries, claims due deliveries with a lease, sends each through the
// SSRF-guarded agent, and records every attempt. Runs in the server process; any number of
// processes may share one PostgreSQL (SKIP LOCKED claims, one pending delivery per token).
//
// Crash safety: a claim is a lease (lease_until). A process that dies mid-send never records the
// attempt; when the lease runs out any worker claims the delivery again and re-sends the same
// bytes under the same X-Service-Delivery (at least once, HOOK-021).
import { randomUUID } from 'node:crypto';
import type { Agent } from 'undici';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Db, Queryable } from '../storage/db.ts';
import { getTokenWebhook } from '../storage/tokens/getTokenWebhook.ts';
import { claimDueDeliveries, type ClaimedDelivery } from '../storage/webhooks/claimDueDeliveries.ts';
import { recordAttempt } from '../storage/webhooks/recordAttempt.ts';
import { createSecretBox, SecretUnreadableError, type SecretBox } from './secretBox.ts';
import { makeDeliveries, makeDelivery } from './batch.ts';
import type { ItemChangeRecorder } from './itemChange.ts';
import { createOutboxRecorder } from './outbox.ts';
import { nextAttemptAt, scheduleFromConfig, type RetrySchedule } from './retrySchedule.ts';
import { sendAttempt, type AttemptOutcome } from './sendAttempt.ts';
import { createGuardedAgent } from './ssrfGuard.ts';

export interface DeliveryWorkerOptions {
  db: Db;
  logger: Logger;
  /** Epoch ms: attempt times, due times and leases. */
  now: () => number;
  /** Base of resourceUri. */
  publicBaseUrl: string;
  schedule: RetrySchedule;
  /** Budget for the receiver's response headers (DEC-HOOK-006). */
  timeoutMs: number;
  secrets: SecretBox;
  /** ALLOW_INSECURE_CALLBACKS: http: and loopback receivers. */
  allowInsecure: boolean;
  /** Extra CA certificates for receivers (tests with a self-signed https receiver). */
  ca?: string;
  /** Idle poll interval, so other instances' writes and due retries are found. */
  pollMs?: number;
  /** Deliveries sent at once (over all tokens; one per token anyway). */
  maxInFlight?: number;
  /** How long a claim holds; must exceed the send budget. */
  leaseMs?: number;
  /** Jitter source of the retry schedule. */
  random?: () => number;
}

export interface DeliveryWorker {
  start(): void;
  /**
   * Stops claiming, then waits up to `deadlineMs` for attempts in flight to be recorded. An
   * attempt still running then is abandoned: its lease runs out and the delivery is re-sent.
   */
  stop(options?: { deadlineMs?: number }): Promise<void>;
  /** An item change was queued in this process: look now, and keep looking briefly. */
  nudge(): void;
  readonly running: boolean;
}

const DEFAULT_POLL_MS = 250;
// After a nudge the change may not be committed yet; look again this often for this long.
const NUDGE_POLL_MS = 5;
const NUDGE_WINDOW_MS = 250;

function createDeliveryWorker(options: DeliveryWorkerOptions): DeliveryWorker {
  const { db, logger, now } = options;
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  const maxInFlight = options.maxInFlight ?? 16;
  const leaseMs = options.leaseMs ?? Math.max(30_000, 2 * options.timeoutMs + 10_000);
  const inFlight = new Set<Promise<void>>();
  let running = false;
  let abandoned = false;
  let loopDone: Promise<void> = Promise.resolve();
  let agent: Agent | undefined;
  let nudgedAt = -Infinity;
  let wake: (() => void) | undefined;
  // A finished attempt that came while a pass was running must not be lost: the next delivery
  // of its token can be made only now. (Nudges do not set it: a burst of writes would otherwise
  // keep the loop busy looking at tokens whose delivery is still in flight.)
  let wakeRequested = false;

  function wakeUp(): void {
    wakeRequested = true;
    wake?.();
  }

  function sleep(ms: number): Promise<void> {
    if (wakeRequested) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
      wake = done;
    });
  }

  async function pass(): Promise<boolean> {
    const made = await makeDeliveries(db, { publicBaseUrl: options.publicBaseUrl, now });
    const free = maxInFlight - inFlight.size;
    if (free <= 0 || !running) return made > 0;
    const at = now();
    const claimId = randomUUID();
    const claimed = await claimDueDeliveries(db, {
      now: new Date(at),
      leaseUntil: new Date(at + leaseMs),
      claimId,
      limit: free,
    });
    for (const delivery of claimed) {
      const attempt = deliver(delivery, claimId, agent!)
        .catch((error: unknown) => {
          // The lease runs out and the delivery is sent again; nothing is lost.
          logger.error({ err: error, deliveryId: delivery.id }, 'webhook attempt could not be recorded');
        })
        .finally(() => {
          inFlight.delete(attempt);
          wakeUp();
        });
      inFlight.add(attempt);
    }
    return made > 0 || claimed.length > 0;
  }

  /**
   * Sends a claimed delivery and records the attempt. When it is settled and the token has more
   * changes queued, the same transaction makes and claims the token's next delivery, which is
   * sent straight away: one transaction per delivery while a receiver keeps up.
   */
  async function deliver(first: ClaimedDelivery, firstClaimId: string, dispatcher: Agent): Promise<void> {
    let current: { delivery: ClaimedDelivery; claimId: string } | null = { delivery: first, claimId: firstClaimId };
    while (current !== null && !abandoned) {
      const { delivery, claimId }: { delivery: ClaimedDelivery; claimId: string } = current;
      const startedAt = now();
      const outcome = await attemptDelivery(delivery, dispatcher);
      if (abandoned) return;
      const attemptsMade = delivery.attemptCount + 1;
      // Transient: retry on the schedule, counted from the first attempt; past its end, drop.
      const next: number | null =
        outcome.outcome !== 'transient'
          ? null
          : nextAttemptAt({
              firstAttemptAt: delivery.firstAttemptAt?.getTime() ?? startedAt,
              attemptsMade,
              now: now(),
              schedule: options.schedule,
              random: options.random,
            });
      // @implements HOOK-019
      const state: 'pending' | 'delivered' | 'failed' | 'dropped' =
        outcome.outcome === 'delivered'
          ? 'delivered'
          : outcome.outcome === 'permanent'
            ? 'failed'
            : next === null
              ? 'dropped'
              : 'pending';
      const result: { recorded: boolean; following: { delivery: ClaimedDelivery; claimId: string } | null } =
        await db.transaction(async (tx) => {
          const recorded = await recordAttempt(tx, {
            deliveryId: delivery.id,
            claimId,
            at: new Date(startedAt),
            status: outcome.status,
            latencyMs: outcome.latencyMs,
            error: outcome.error,
            outcome: outcome.outcome,
            state,
            nextAttemptAt: next === null ? null : new Date(next),
          });
          return {
            recorded,
            following: recorded && state !== 'pending' && running ? await claimFollowing(tx, delivery.tokenId) : null,
          };
        });
      const fields = {
        deliveryId: delivery.id,
        tokenId: delivery.tokenId,
        attempt: attemptsMade,
        status: outcome.status,
        latencyMs: outcome.latencyMs,
        state,
      };
      if (!result.recorded)
        logger.warn(fields, 'webhook attempt not recorded: the delivery was taken over or its token deleted');
      else if (state === 'delivered') logger.debug(fields, 'webhook delivered');
      else
        logger.warn(
          { ...fields, error: outcome.error },
          state === 'pending' ? 'webhook attempt failed; will retry' : `webhook delivery ${state}`,
        );
      current = result.following;
    }
  }

  /**
   * Inside `tx`: the token's next delivery from its queued changes, already claimed by us. None
   * when the token lost its webhook meanwhile: the next pass drops its queued changes, as
   * makeDeliveries does for every token without a callBackUrl.
   */
  async function claimFollowing(
    tx: Queryable,
    tokenId: string,
  ): Promise<{ delivery: ClaimedDelivery; claimId: string } | null> {
    const webhook = await getTokenWebhook(tx, { tokenId });
    if (webhook === null || webhook.callbackUrl === null) return null;
    const claimId = randomUUID();
    const made = await makeDelivery(tx, {
      tokenId,
      publicBaseUrl: options.publicBaseUrl,
      now,
      lease: { until: new Date(now() + leaseMs), claimId },
    });
    if (made === null) return null;
    return {
      claimId,
      delivery: {
        id: made.id,
        tokenId,
        body: made.body,
        itemCount: made.itemCount,
        attemptCount: 0,
        firstAttemptAt: null,
        callbackUrl: webhook.callbackUrl,
        signingSecret: webhook.signingSecret,
      },
    };
  }

  /** One attempt, or the reason none could be made (a permanent failure, recorded like one). */
  async function attemptDelivery(delivery: ClaimedDelivery, dispatcher: Agent): Promise<AttemptOutcome> {
    const refused = (error: string): AttemptOutcome => ({
      outcome: 'permanent',
      status: null,
      latencyMs: 0,
      error,
      timestamp: Math.floor(now() / 1000),
    });
    if (delivery.callbackUrl === null) return refused('webhook removed: the token has no callBackUrl');
    if (delivery.signingSecret === null)
      return refused('no signing secret: POST …/rotate-secret creates the first one');
    let secret: string;
    try {
      secret = options.secrets.open(delivery.signingSecret, delivery.tokenId);
    } catch (error) {
      if (error instanceof SecretUnreadableError) return refused(error.message);
      throw error;
    }
    return sendAttempt({
      url: delivery.callbackUrl,
      body: delivery.body,
      secret,
      deliveryId: delivery.id,
      dispatcher,
      now,
      headersTimeoutMs: options.timeoutMs,
    });
  }

  async function loop(): Promise<void> {
    while (running) {
      let busy = false;
      wakeRequested = false;
      try {
        busy = await pass();
      } catch (error) {
        logger.warn({ err: error }, 'webhook worker pass failed; trying again');
      }
      if (!running) break;
      if (busy) continue;
      const nudged = performance.now() - nudgedAt < NUDGE_WINDOW_MS;
      await sleep(nudged ? NUDGE_POLL_MS : pollMs);
    }
  }

  return {
    get running() {
      return running;
    },
    start() {
      if (running) return;
      running = true;
      abandoned = false;
      agent = createGuardedAgent({
        allowInsecure: options.allowInsecure,
        ...(options.ca === undefined ? {} : { ca: options.ca }),
        connectTimeoutMs: options.timeoutMs,
      });
      loopDone = loop();
    },
    async stop(stopOptions = {}) {
      if (!running) return;
      running = false;
      wakeUp();
      await loopDone;
      const deadline = stopOptions.deadlineMs ?? options.timeoutMs + 1000;
      let timer: NodeJS.Timeout | undefined;
      const settled = await Promise.race([
        Promise.allSettled([...inFlight]).then(() => true),
        new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(false), deadline);
        }),
      ]);
      clearTimeout(timer);
      if (!settled) {
        abandoned = true;
        logger.warn(
          { inFlight: inFlight.size },
          'webhook worker stopped with attempts in flight; they will be re-sent after their lease',
        );
      }
      const closing = agent;
      agent = undefined;
      await closing?.destroy().catch(() => {});
    },
    nudge() {
      nudgedAt = performance.now();
      wake?.();
    },
  };
}

export interface WebhookServicesDeps {
  db: Db;
  config: Config;
  logger: Logger;
  now: () => number;
  /** Overrides for tests and benchmarks. */
  worker?: Partial<Pick<DeliveryWorkerOptions, 'pollMs' | 'maxInFlight' | 'leaseMs' | 'random' | 'ca'>>;
}

export interface WebhookServices {
  /** The services' recordItemChange: the outbox, waking this process's worker. */
  recordItemChange: ItemChangeRecorder;
  worker: DeliveryWorker;
  /** Seals and opens signing secrets with WEBHOOK_SECRET_KEY (token routes use the same). */
  secrets: SecretBox;
}

export function createWebhookServices(deps: WebhookServicesDeps): WebhookServices {
  const secrets = createSecretBox(deps.config.webhookSecretKey);
  const worker = createDeliveryWorker({
    db: deps.db,
    logger: deps.logger,
    now: deps.now,
    publicBaseUrl: deps.config.publicBaseUrl,
    schedule: scheduleFromConfig(deps.config.webhookRetryScheduleMs),
    timeoutMs: deps.config.webhookTimeoutMs,
    secrets,
    allowInsecure: deps.config.allowInsecureCallbacks,
    ...(deps.config.webhookLeaseMs === undefined ? {} : { leaseMs: deps.config.webhookLeaseMs }),
    ...deps.worker,
  });
  return { recordItemChange: createOutboxRecorder({ onQueued: () => worker.nudge() }), worker, secrets };
}
