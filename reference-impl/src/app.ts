import express, { type RequestHandler } from 'express';
import { PAGE_SIZE } from '../../generated/constants.ts';
import type { Logger } from 'pino';
import type { AssetFileStore } from './assets/fileStore.ts';
import { SECOND, type Config } from './config.ts';
import { createBearerResolver, type SessionVerifier } from './auth/resolveBearer.ts';
import type { TokenCache } from './auth/tokenCache.ts';
import { authenticate } from './http/authenticate.ts';
import { authenticateBeforeBody } from './http/authenticateBeforeBody.ts';
import { findPrincipal } from './http/principal.ts';
import { errorHandler, notFound, rejectUnknownRoutes } from './http/errorHandler.ts';
import { loadOpenApiDocument } from './http/openapiDocument.ts';
import { rejectMalformedQuery } from './http/rejectMalformedQuery.ts';
import { requireUtf8Body } from './http/requireUtf8Body.ts';
import { storageUnavailable } from './http/storageUnavailable.ts';
import { createRequestValidator, type SizeCapRule } from './http/validateRequest.ts';
import { AUTH_POLICY, createAuthThrottle, NO_AUTH_THROTTLE, type AuthThrottle } from './ratelimit/authThrottle.ts';
import { createMemoryStore } from './ratelimit/memoryStore.ts';
import { rateLimit } from './ratelimit/middleware.ts';
import type { RateLimitStore } from './ratelimit/store.ts';
import { assetRoutes } from './routes/assets.ts';
import { authRoutes } from './routes/auth.ts';
import { dictionaryRoutes } from './routes/dictionary.ts';
import { feedRoutes } from './routes/feeds.ts';
import { healthRoutes } from './routes/health.ts';
import { itemRoutes } from './routes/items.ts';
import { routeExportRoutes } from './routes/routeExports.ts';
import { tokenRoutes } from './routes/tokens.ts';
import { createSessionVerifier } from './sessions/sessionVerifier.ts';
import type { Db } from './storage/db.ts';
import type { ItemChangeRecorder } from './webhooks/itemChange.ts';
import type { RenderingRefresher } from './items/renderingRefresher.ts';
import type { FeedService } from './feeds/feedService.ts';

/** What the app is built from. Clock and stores are injectable so tests control them. */
export interface AppDeps {
  db: Db;
  logger: Logger;
  rateLimitStore: RateLimitStore;
  /**
   * Buckets of failed sign-ins and refreshes (DEC-AUTH-016), built with AUTH_POLICY. Default: in
   * memory on the app's clock.
   */
  authRateLimitStore?: RateLimitStore;
  /** Milliseconds since the epoch. */
  now: () => number;
  /** Default: session tokens issued by `POST /auth/signin` of this app (same secret and clock). */
  sessions?: SessionVerifier;
  /** Writes the webhook outbox event of every item write, inside the write's transaction. */
  recordItemChange: ItemChangeRecorder;
  /** Told when reads met stale stored renderings or an ontology changed. Default: nothing renews them. */
  renderings?: Pick<RenderingRefresher, 'requestRefresh'>;
  /**
   * Asset bytes, shared with the retention job that prunes staged uploads. Default: files under
   * DATA_DIR/assets, or in memory for `:memory:`.
   */
  assetStore?: AssetFileStore;
  /**
   * The feeds and their runs, shared with the feed scheduler and awaited at shutdown. Default: the
   * feeds of FEEDS_FILE with runs of this app alone.
   */
  feedService?: FeedService;
  /**
   * Principals of account tokens, kept while the store's auth changes are heard
   * (listenForAuthChanges). Default: none, every request looks its token up.
   */
  tokenCache?: TokenCache;
}

/** What every route module receives. */
export interface RouteContext extends AppDeps {
  config: Config;
  /** Middleware validating the request of an operation against the spec. */
  validate: ReturnType<typeof createRequestValidator>;
  /** Rejects requests without a valid bearer token (401). */
  auth: RequestHandler;
  // @implements RATE-001
  /** The per-IP limit of the list endpoints and `/dictionary` (RATE-001); a no-op when disabled. */
  rateLimited: RequestHandler;
  /** Failed sign-ins and refreshes per client IP and user name (DEC-AUTH-016); off with the rate limit. */
  authThrottle: AuthThrottle;
  /** LIMIT-002/003 for the `size` of the item lists. */
  sizeCap: SizeCapRule;
}

// @implements VER-001
export const BASE_PATH = '/api';

const JSON_TYPES = ['application/json', 'application/*+json'];

/** The JSON parser: 1 MiB once the bearer was checked (DEC-ERR-003), `preAuthBytes` before. */
function readJsonBody(preAuthBytes: number): RequestHandler {
  const authenticated = express.json({ limit: '1mb', type: JSON_TYPES, verify: requireUtf8Body });
  const anonymous = express.json({ limit: preAuthBytes, type: JSON_TYPES, verify: requireUtf8Body });
  return function readJsonBodyHandler(req, res, next) {
    (findPrincipal(res) === undefined ? anonymous : authenticated)(req, res, next);
  };
}

export function createApp(config: Config, deps: AppDeps): express.Express {
  const doc = loadOpenApiDocument();
  const context: RouteContext = {
    ...deps,
    config,
    validate: createRequestValidator(doc),
    auth: authenticate({
      resolve: createBearerResolver({ db: deps.db, sessions: sessionsOf(config, deps), cache: deps.tokenCache }),
    }),
    rateLimited: config.rateLimitEnabled ? rateLimit({ store: deps.rateLimitStore }) : (_req, _res, next) => next(),
    authThrottle: config.rateLimitEnabled
      ? createAuthThrottle({
          store: deps.authRateLimitStore ?? createMemoryStore({ policy: AUTH_POLICY, now: deps.now }),
        })
      : NO_AUTH_THROTTLE,
    sizeCap: { max: PAGE_SIZE.maximum, enforcedFrom: config.sizeCapEnforcedFrom, now: deps.now },
  };

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.set('query parser', 'simple');
  // No automatic ETag on JSON answers: the interface defines none for them, and hashing every
  // answer (a 2000-item page is 10+ MB) costs each request more than it could save. Asset files
  // set their own.
  app.set('etag', false);
  app.use(rejectUnknownRoutes({ doc, basePath: BASE_PATH, rateLimitHeaders: config.rateLimitEnabled })); // 404/405 before a body is read (DEC-ERR-005)
  app.use(rejectMalformedQuery());
  // No body is read for a caller whose bearer fails (issue 18); bearer-less operations get a small limit.
  app.use(
    authenticateBeforeBody({
      doc,
      basePath: BASE_PATH,
      auth: context.auth,
      discard: { maxBytes: config.preAuthBodyMaxBytes, maxMs: SECOND, lingerMs: SECOND },
    }),
  );
  app.use(readJsonBody(config.preAuthBodyMaxBytes));

  const api = express.Router();
  api.use(healthRoutes(context));
  // route modules: one line each, in the order of spec/openapi.yaml
  api.use(itemRoutes(context));
  api.use(routeExportRoutes(context));
  api.use(dictionaryRoutes(context));
  api.use(assetRoutes(context));
  api.use(tokenRoutes(context));
  api.use(authRoutes(context));
  api.use(feedRoutes(context));
  app.use(BASE_PATH, api);

  app.use(notFound());
  app.use(storageUnavailable());
  app.use(errorHandler({ logger: deps.logger }));
  return app;
}

function sessionsOf(config: Config, deps: AppDeps): SessionVerifier {
  return deps.sessions ?? createSessionVerifier({ db: deps.db, secret: config.sessionSecret, now: deps.now });
}
