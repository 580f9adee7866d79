import { createAssetFileStore } from './assets/createAssetFileStore.ts';
import type { AssetFileStore } from './assets/fileStore.ts';
import { createResizer, type Resizer } from './assets/resizer.ts';
import type { SessionVerifier } from './auth/resolveBearer.ts';
import { createTokenCache, listenForAuthChanges, type TokenCache } from './auth/tokenCache.ts';
import { SECOND, type Config } from './config.ts';
import { createOntologyCache, type OntologyCache } from './dictionary/ontologyCache.ts';
import { createFeedService, type FeedService } from './feeds/feedService.ts';
import { startFeedScheduler } from './feeds/startFeedScheduler.ts';
import { createItemReads, type ItemReads } from './items/itemReads.ts';
import { createRenderingRefresher, type RenderingRefresher } from './items/renderingRefresher.ts';
import type { Lifecycle } from './lifecycle.ts';
import type { Logger } from './logger.ts';
import { startRetentionJob } from './maintenance/retention.ts';
import { createRateLimitStores, type RateLimitStores } from './ratelimit/stores.ts';
import { createSessionVerifier } from './sessions/sessionVerifier.ts';
import type { Db } from './storage/db.ts';
import type { SecretBox } from './webhooks/secretBox.ts';
import type { ItemChangeRecorder } from './webhooks/itemChange.ts';
import { createWebhookServices, type DeliveryWorker } from './webhooks/worker.ts';

// The composition root: every service of one running instance, built once from the configuration.
// `npm start` (server.ts), the tests' app and the bench all assemble the app from this object, so
// what the routes use and what the background services keep current is the same instance.

/** What the services are built on; the caller owns them (opens and closes the store). */
export interface ServiceBase {
  db: Db;
  logger: Logger;
  /** Milliseconds since the epoch. */
  now: () => number;
}

export interface Services extends ServiceBase {
  /** With the port bound: the public base URL names the real port. */
  config: Config;
  /** Session tokens issued by `POST /auth/signin` (same secret and clock). */
  sessions: SessionVerifier;
  /** Principals of account tokens; caches only while the auth change listener hears the store. */
  tokenCache: TokenCache;
  /** Parsed ontologies, held once for item writes and reads, the dictionary and the rendering refresher. */
  ontologies: OntologyCache;
  /** Writes the webhook outbox event of every item write inside its transaction, and wakes the worker. */
  recordItemChange: ItemChangeRecorder;
  /** Delivers the outbox (a background service). */
  webhookWorker: DeliveryWorker;
  /** Seals and opens signing secrets with WEBHOOK_SECRET_KEY. */
  secrets: SecretBox;
  /** Renews missing or stale stored renderings once started; reads ask it when they meet some. */
  renderings: RenderingRefresher;
  /** Item list pages, through the page cache and the stored renderings. */
  itemReads: ItemReads;
  /** Asset bytes, under DATA_DIR/assets or in memory; the retention job prunes the same store. */
  assetStore: AssetFileStore;
  /** Image variants of assets, with the limits of the configuration (ASSET_CACHE_BYTES, ASSET_RESIZE_*). */
  resizer: Resizer;
  /** The feeds of FEEDS_FILE and their runs, shared by the routes and the scheduler, awaited at shutdown. */
  feedService: FeedService;
  rateLimitStores: RateLimitStores;
}

/** Stand-ins that tests give for a service; each is then used everywhere that service is. */
export type ServiceStandIns = Partial<Pick<Services, 'recordItemChange' | 'assetStore' | 'tokenCache'>>;

/** Builds every service once; nothing runs until `startBackgroundServices`. */
export function createServices(config: Config, base: ServiceBase, standIns: ServiceStandIns = {}): Services {
  const { db, logger, now } = base;
  const ontologies = createOntologyCache(db);
  // The outbox recorder and the delivery worker share one wake-up channel.
  const webhooks = createWebhookServices({ db, config, logger, now });
  const recordItemChange = standIns.recordItemChange ?? webhooks.recordItemChange;
  const renderings = createRenderingRefresher({ db, cache: ontologies, logger });
  return {
    ...base,
    config,
    sessions: createSessionVerifier({ db, secret: config.sessionSecret, now }),
    tokenCache: standIns.tokenCache ?? createTokenCache({ now }),
    ontologies,
    recordItemChange,
    webhookWorker: webhooks.worker,
    secrets: webhooks.secrets,
    renderings,
    itemReads: createItemReads({ db, ontologies, renderings, listCacheBytes: config.listCacheBytes }),
    assetStore: standIns.assetStore ?? createAssetFileStore(config.dataDir),
    resizer: createResizer({
      cacheBytes: config.assetCacheBytes,
      maxInputPixels: config.assetResizeMaxPixels,
      maxConcurrent: config.assetResizeConcurrency,
      maxWaitMs: config.assetResizeQueueTimeoutMs,
      timeoutSeconds: config.assetResizeTimeoutMs / SECOND,
    }),
    feedService: createFeedService({
      feedsFile: config.feedsFile,
      db,
      logger,
      now,
      itemWrites: { recordItemChange, ontologies },
    }),
    rateLimitStores: createRateLimitStores(config, logger, now),
  };
}

/**
 * Starts the background services of `services` and registers their stops: the webhook delivery
 * worker, the feed scheduler, the retention job, the rendering refresher and the auth change
 * listener. Stops run after HTTP stopped accepting and finished in-flight requests, before storage
 * closes.
 */
export async function startBackgroundServices(services: Services, lifecycle: Lifecycle): Promise<void> {
  const { db, logger, now } = services;
  const worker = services.webhookWorker;
  worker.start();
  lifecycle.onStop('webhook worker', () => worker.stop());
  // Runs started through POST /feeds/{feedID}/fetchAndConvertOnce finish before shutdown goes on,
  // like the scheduler's (whose stop, registered later, runs first).
  const { feedService } = services;
  lifecycle.onStop('feed runs', () => feedService.runs.idle());
  startFeedScheduler({ feedService, db, logger, now, lifecycle });
  // Old sessions, spent refresh tokens, feed runs and staged uploads (DEC-MISC-004): at start, then hourly.
  const retention = startRetentionJob({ db, assets: services.assetStore, now, logger });
  lifecycle.onStop('retention', () => retention.stop());
  // Stored item renderings that are missing or stale (migration 007): at start, then when asked.
  services.renderings.start();
  lifecycle.onStop('rendering refresher', () => services.renderings.stop());
  // Token changes committed anywhere (migration 009) clear the token cache of this instance.
  const authChanges = await listenForAuthChanges(db, services.tokenCache, logger);
  lifecycle.onStop('auth change listener', () => authChanges.close());
}
