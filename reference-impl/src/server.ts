import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { BASE_PATH, createApp } from './app.ts';
import { SECOND, type Config } from './config.ts';
import { errorHandler } from './http/errorHandler.ts';
import { HttpError } from './http/HttpError.ts';
import { limitConnections } from './http/limitConnections.ts';
import { docsPage } from './http/docsPage.ts';
import { loadOpenApiDocument } from './http/openapiDocument.ts';
import { createLifecycle } from './lifecycle.ts';
import type { Logger } from './logger.ts';
import { ensureBootstrapAdminToken } from './seed/bootstrapAdminToken.ts';
import { revokeDemoCredentials, type RevokedDemoCredentials } from './seed/revokeDemoCredentials.ts';
import { seedDemoData, type SeedResult } from './seed/seedDemoData.ts';
import { createServices, startBackgroundServices } from './services.ts';
import { isStoreEmpty } from './storage/accounts/isStoreEmpty.ts';
import type { Db } from './storage/db.ts';
import { runMigrations } from './storage/migrate.ts';
import { openDb } from './storage/openDb.ts';

// Start and stop of the whole service: storage, HTTP, the services (services.ts), seed, the app,
// background workers, in that order, and the reverse at shutdown. `main.ts` only reads the command line and prints.

/** How long in-flight requests may take to finish at shutdown before their connections are cut. */
export const SHUTDOWN_DEADLINE_MS = 10 * SECOND;

export const DOCS_FILE = fileURLToPath(new URL('../../docs/build/index.html', import.meta.url));

export interface RunningService {
  /** The configuration in force, with the port actually bound (PORT=0 picks a free one). */
  config: Config;
  db: Db;
  /** Ends in `/api`. */
  baseUrl: string;
  /** The docs URL, or undefined when docs/build/index.html is not built. */
  docsUrl: string | undefined;
  /** What the demo seed did; undefined with demo data off. */
  seed: SeedResult | undefined;
  /** With demo data off: the demo tokens and users of an earlier seed, deleted at this start. */
  revokedDemo: RevokedDemoCredentials | undefined;
  /** The store held no account and no item when the service started. */
  storeWasEmpty: boolean;
  bootstrapToken: { created: boolean } | undefined;
  /** Graceful: stop accepting, finish in-flight requests (until the deadline), stop workers, close storage. */
  stop(): Promise<void>;
}

/** Opens storage, migrates, listens, builds the services, seeds, mounts the app and starts the background services. */
export async function startService(
  config: Config,
  logger: Logger,
  options: { now?: () => number } = {},
): Promise<RunningService> {
  const now = options.now ?? Date.now;
  const lifecycle = createLifecycle(logger);
  const handler = express();
  handler.disable('x-powered-by');
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
  // Until the app is mounted (storage, services and seed come after listening), requests are
  // asked to come back: a 503 in the error shape, never a 404 for a route that is about to exist.
  let app: express.Express | undefined;
  const docsBuilt = existsSync(DOCS_FILE);
  // Read once; from the moment the port is bound it names this instance's own URL (docsPage).
  let docs = docsBuilt ? readFileSync(DOCS_FILE, 'utf8') : '';
  if (docsBuilt)
    handler.get(['/docs', '/docs/', '/docs/index.html'], (_req, res) => {
      res.type('html').send(docs);
    });
  handler.use((req, res, next) => {
    if (app !== undefined) app(req, res, next);
    else
      next(
        new HttpError(503, {
          message: 'The service is starting; retry after 1 s',
          headers: { 'Retry-After': '1' },
          expected: true,
        }),
      );
  });
  handler.use(errorHandler({ logger }));
  const db = await openDb(config);
  try {
    const migrated = await runMigrations(db);
    if (migrated.length > 0) logger.info({ migrations: migrated }, 'storage migrated');

    // Listen first: with PORT=0 the port, and with it the public base URL every service uses, is
    // known only then.
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const bound = withBoundPort(config, (server.address() as AddressInfo).port);
    if (docsBuilt) docs = docsPage(docs, loadOpenApiDocument().servers, bound.publicBaseUrl);

    const services = createServices(bound, { db, logger, now });
    lifecycle.onStop('rate limit stores', () => services.rateLimitStores.close());
    if (!(await services.rateLimitStores.ready()))
      logger.warn('rate limit: Redis not reachable at start; limiting per instance in memory until it is');
    const storeWasEmpty = await isStoreEmpty(db);
    const seed = bound.seedDemoData
      ? await seedDemoData(
          db,
          { recordItemChange: services.recordItemChange, ontologies: services.ontologies },
          { assetStore: services.assetStore },
        )
      : undefined;
    const revokedDemo = bound.seedDemoData ? undefined : await revokeDemoCredentials(db);
    const bootstrapToken =
      bound.bootstrapAdminToken === undefined
        ? undefined
        : await ensureBootstrapAdminToken(db, bound.bootstrapAdminToken);

    app = createApp(services);

    await startBackgroundServices(services, lifecycle);
    const origin = bound.publicBaseUrl.slice(0, -BASE_PATH.length);
    return {
      config: bound,
      db,
      baseUrl: bound.publicBaseUrl,
      docsUrl: docsBuilt ? `${origin}/docs/` : undefined,
      seed,
      revokedDemo,
      storeWasEmpty,
      bootstrapToken,
      stop: onceOnly(async () => {
        await closeServer(server, SHUTDOWN_DEADLINE_MS);
        await lifecycle.stopAll();
        await db.close();
      }),
    };
  } catch (error) {
    if (server.listening) await closeServer(server, 0);
    await lifecycle.stopAll();
    await db.close().catch(() => {});
    throw error;
  }
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
