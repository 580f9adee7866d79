import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { BASE_PATH, createApp, type AppDeps } from './app.ts';
import { createAssetFileStore, type AssetFileStore } from './assets/fileStore.ts';
import { createTokenCache, listenForAuthChanges, type TokenCache } from './auth/tokenCache.ts';
import { SECOND, type Config } from './config.ts';
import { createFeedService, type FeedService } from './feeds/feedService.ts';
import { startFeedScheduler } from './feeds/startFeedScheduler.ts';
import type { Logger } from './logger.ts';
import { sharedOntologyCache } from './items/sharedOntologyCache.ts';
import { startRetentionJob } from './maintenance/retention.ts';
import { startRenderingRefresher, type RenderingRefresher } from './items/renderingRefresher.ts';
import { AUTH_KEY_PREFIX, AUTH_POLICY } from './ratelimit/authThrottle.ts';
import { createMemoryStore } from './ratelimit/memoryStore.ts';
import { createRedisClient, createRedisStore } from './ratelimit/redisStore.ts';
import type { RateLimitStore } from './ratelimit/store.ts';
import { limitConnections } from './http/limitConnections.ts';
import { ensureBootstrapAdminToken } from './seed/bootstrapAdminToken.ts';
import { seedDemoData, type SeedResult } from './seed/seedDemoData.ts';
import type { Db } from './storage/db.ts';
import { runMigrations } from './storage/migrate.ts';
import { openDb } from './storage/openDb.ts';
import { createWebhookServices, type WebhookServices } from './webhooks/worker.ts';

// Start and stop of the whole service: storage, seed, HTTP, background workers, in that order,
// and the reverse at shutdown. `main.ts` only reads the command line and prints.

/** How long in-flight requests may take to finish at shutdown before their connections are cut. */
export const SHUTDOWN_DEADLINE_MS = 10 * SECOND;

export const DOCS_FILE = fileURLToPath(new URL('../../docs/build/index.html', import.meta.url));

/** Where parts of the service register what must happen at shutdown. */
export interface Lifecycle {
  /** Steps run in reverse order of registration, after HTTP stopped and before storage closes. */
  onStop(name: string, stop: () => Promise<void> | void): void;
}

interface RunnableLifecycle extends Lifecycle {
  stopAll(): Promise<void>;
}

function createLifecycle(logger: Logger): RunnableLifecycle {
  const steps: Array<{ name: string; stop: () => Promise<void> | void }> = [];
  return {
    onStop(name, stop) {
      steps.push({ name, stop });
    },
    async stopAll() {
      for (const step of steps.splice(0).reverse()) {
        try {
          await step.stop();
        } catch (error) {
          logger.error({ err: error, step: step.name }, 'shutdown step failed');
        }
      }
    },
  };
}

/** What the app's dependencies and the background services are built from. */
export interface ServiceContext {
  config: Config;
  db: Db;
  logger: Logger;
  now: () => number;
  lifecycle: Lifecycle;
}

/**
 * REGISTRATION POINT for dependencies other parts provide to the app: the webhook outbox
 * recorder replaces `ignoreItemChanges` here; a session verifier may be added (createApp builds
 * one from the config when absent).
 */
export function serviceAppDeps(ctx: ServiceContext, stores: RateLimitStores): AppDeps {
  return {
    db: ctx.db,
    logger: ctx.logger,
    now: ctx.now,
    rateLimitStore: stores.lists,
    authRateLimitStore: stores.auth,
    recordItemChange: webhookServicesOf(ctx).recordItemChange,
    renderings: { requestRefresh: () => renderingRefreshers.get(ctx)?.requestRefresh() },
    assetStore: assetStoreOf(ctx),
    feedService: feedServiceOf(ctx),
    tokenCache: tokenCacheOf(ctx),
  };
}

// The app's token cache is the one the auth change listener (a background service) keeps current;
// until that listens, it caches nothing.
const tokenCaches = new WeakMap<ServiceContext, TokenCache>();

function tokenCacheOf(ctx: ServiceContext): TokenCache {
  let cache = tokenCaches.get(ctx);
  if (cache === undefined) {
    cache = createTokenCache({ now: ctx.now });
    tokenCaches.set(ctx, cache);
  }
  return cache;
}

// Started with the background services; until then a request for renewal waits for the first pass.
const renderingRefreshers = new WeakMap<ServiceContext, RenderingRefresher>();

// The outbox recorder (an app dependency) and the delivery worker (a background service) of one
// start share one wake-up channel, so they are made once per ServiceContext.
const webhookServices = new WeakMap<ServiceContext, WebhookServices>();

function webhookServicesOf(ctx: ServiceContext): WebhookServices {
  let services = webhookServices.get(ctx);
  if (services === undefined) {
    // resourceUri is read from ctx.config at each batch: with PORT=0 it names the real port only after listening.
    services = createWebhookServices({
      db: ctx.db,
      config: ctx.config,
      logger: ctx.logger,
      now: ctx.now,
      publicBaseUrl: () => ctx.config.publicBaseUrl,
    });
    webhookServices.set(ctx, services);
  }
  return services;
}

// The asset store of the routes is the one the retention job prunes (with DATA_DIR=:memory: a
// second store would be another, empty one); the feed routes and the scheduler share one FeedRuns,
// so each sees the other's runs and shutdown waits for both.
const assetStores = new WeakMap<ServiceContext, AssetFileStore>();
const feedServices = new WeakMap<ServiceContext, FeedService>();

function assetStoreOf(ctx: ServiceContext): AssetFileStore {
  let store = assetStores.get(ctx);
  if (store === undefined) {
    store = createAssetFileStore(ctx.config.dataDir);
    assetStores.set(ctx, store);
  }
  return store;
}

function feedServiceOf(ctx: ServiceContext): FeedService {
  let service = feedServices.get(ctx);
  if (service === undefined) {
    service = createFeedService({
      feedsFile: ctx.config.feedsFile,
      db: ctx.db,
      logger: ctx.logger,
      now: ctx.now,
      recordItemChange: webhookServicesOf(ctx).recordItemChange,
    });
    feedServices.set(ctx, service);
  }
  return service;
}

/**
 * REGISTRATION POINT for background workers (the webhook delivery worker, the feed scheduler,
 * the retention job): start each here and register its stop with `ctx.lifecycle.onStop`. Runs after
 * the HTTP server listens; stops run after it stopped accepting and finished in-flight requests,
 * before storage closes.
 */
export async function startBackgroundServices(ctx: ServiceContext): Promise<void> {
  const { worker } = webhookServicesOf(ctx);
  worker.start();
  ctx.lifecycle.onStop('webhook worker', () => worker.stop());
  // Runs started through POST /feeds/{feedID}/fetchAndConvertOnce finish before shutdown goes on,
  // like the scheduler's (whose stop, registered later, runs first).
  const feedService = feedServiceOf(ctx);
  ctx.lifecycle.onStop('feed runs', () => feedService.runs.idle());
  startFeedScheduler({ ...ctx, feedService });
  // Old sessions, spent refresh tokens, feed runs and staged uploads (DEC-MISC-004): at start, then hourly.
  const retention = startRetentionJob({ db: ctx.db, assets: assetStoreOf(ctx), now: ctx.now, logger: ctx.logger });
  ctx.lifecycle.onStop('retention', () => retention.stop());
  // Stored item renderings that are missing or stale (migration 007): at start, then when asked.
  const renderings = startRenderingRefresher({ db: ctx.db, cache: sharedOntologyCache(ctx.db), logger: ctx.logger });
  renderingRefreshers.set(ctx, renderings);
  ctx.lifecycle.onStop('rendering refresher', () => renderings.stop());
  // Token changes committed anywhere (migration 009) clear the token cache of this instance.
  const authChanges = await listenForAuthChanges(ctx.db, tokenCacheOf(ctx), ctx.logger);
  ctx.lifecycle.onStop('auth change listener', () => authChanges.close());
}

export interface RunningService {
  /** The configuration in force, with the port actually bound (PORT=0 picks a free one). */
  config: Config;
  db: Db;
  /** Ends in `/api`. */
  baseUrl: string;
  /** The docs URL, or undefined when docs/build/index.html is not built. */
  docsUrl: string | undefined;
  seed: SeedResult | undefined;
  bootstrapToken: { created: boolean } | undefined;
  /** Graceful: stop accepting, finish in-flight requests (until the deadline), stop workers, close storage. */
  stop(): Promise<void>;
}

/** Opens storage, migrates, seeds, listens and starts the background services. */
export async function startService(
  config: Config,
  logger: Logger,
  options: { now?: () => number } = {},
): Promise<RunningService> {
  const now = options.now ?? Date.now;
  const lifecycle = createLifecycle(logger);
  const db = await openDb(config);
  try {
    const migrated = await runMigrations(db);
    if (migrated.length > 0) logger.info({ migrations: migrated }, 'storage migrated');
    const rateLimitStores = await openRateLimitStores(config, logger);
    lifecycle.onStop('rate limit stores', () => rateLimitStores.close());

    const context: ServiceContext = { config, db, logger, now, lifecycle };
    const deps = serviceAppDeps(context, rateLimitStores);
    const seed = config.seedDemoData
      ? await seedDemoData(
          db,
          { recordItemChange: deps.recordItemChange, ontologies: sharedOntologyCache(db) },
          { assetStore: deps.assetStore },
        )
      : undefined;
    const bootstrapToken =
      config.bootstrapAdminToken === undefined
        ? undefined
        : await ensureBootstrapAdminToken(db, config.bootstrapAdminToken);

    // Listen first: with PORT=0 the port, and with it the public base URL, is known only then.
    const handler = express();
    const server = createServer(
      {
        requestTimeout: config.requestTimeoutMs,
        headersTimeout: config.headersTimeoutMs,
        // Node looks for expired requests this often (default 30 s, which would stretch the timeouts).
        connectionsCheckingInterval: Math.min(SECOND, config.headersTimeoutMs),
      },
      handler,
    );
    limitConnections(server, config);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const bound = withBoundPort(config, (server.address() as AddressInfo).port);
    context.config = bound;
    handler.disable('x-powered-by');
    const docsBuilt = existsSync(DOCS_FILE);
    if (docsBuilt)
      handler.get(['/docs', '/docs/', '/docs/index.html'], (_req, res) => {
        res.sendFile(DOCS_FILE);
      });
    handler.use(createApp(bound, { ...deps }));

    await startBackgroundServices(context);
    const origin = bound.publicBaseUrl.slice(0, -BASE_PATH.length);
    return {
      config: bound,
      db,
      baseUrl: bound.publicBaseUrl,
      docsUrl: docsBuilt ? `${origin}/docs/` : undefined,
      seed,
      bootstrapToken,
      stop: onceOnly(async () => {
        await closeServer(server, SHUTDOWN_DEADLINE_MS);
        await lifecycle.stopAll();
        await db.close();
      }),
    };
  } catch (error) {
    await lifecycle.stopAll();
    await db.close().catch(() => {});
    throw error;
  }
}

/** The buckets of the lists' limit (RATE-001) and of the sign-in throttle (DEC-AUTH-016). */
export interface RateLimitStores {
  lists: RateLimitStore;
  auth: RateLimitStore;
  close(): Promise<void>;
}

/** In memory, or both in Redis over one connection, each with its policy and key prefix. */
async function openRateLimitStores(config: Config, logger: Logger): Promise<RateLimitStores> {
  if (config.redisUrl === undefined) {
    return { lists: createMemoryStore(), auth: createMemoryStore({ policy: AUTH_POLICY }), close: async () => {} };
  }
  const redis = createRedisClient(config.redisUrl);
  const log = { warn: (msg: string) => logger.warn(msg), info: (msg: string) => logger.info(msg) };
  const lists = createRedisStore({ redis, log });
  const auth = createRedisStore({ redis, log, label: 'sign-in', policy: AUTH_POLICY, keyPrefix: AUTH_KEY_PREFIX });
  if (!(await lists.ready()))
    logger.warn('rate limit: Redis not reachable at start; limiting per instance in memory until it is');
  return {
    lists,
    auth,
    close: async () => {
      redis.disconnect();
    },
  };
}

/** The configuration with the port bound; a base URL derived from PORT=0 names the real port. */
export function withBoundPort(config: Config, port: number): Config {
  if (config.port === port) return config;
  const url = new URL(config.publicBaseUrl);
  // Only the derived default names port 0; an explicit PUBLIC_BASE_URL (a proxy's) stays as it is.
  if (url.port !== '0') return Object.freeze({ ...config, port });
  url.port = String(port);
  return Object.freeze({ ...config, port, publicBaseUrl: url.toString().replace(/\/+$/, '') });
}

/** Stops accepting, lets in-flight requests finish, and cuts what is still open at the deadline. */
function closeServer(server: Server, deadlineMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => server.closeAllConnections(), deadlineMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}

function onceOnly(fn: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () => (running ??= fn());
}
