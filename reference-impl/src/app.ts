import express from 'express';
import { PAGE_SIZE } from '../../generated/constants.ts';
import { SECOND } from './config.ts';
import { createBearerResolver } from './auth/resolveBearer.ts';
import { authenticate } from './http/authenticate.ts';
import { authenticateBeforeBody } from './http/authenticateBeforeBody.ts';
import { errorHandler, notFound, rejectUnknownRoutes } from './http/errorHandler.ts';
import { loadOpenApiDocument } from './http/openapiDocument.ts';
import { rejectMalformedQuery } from './http/rejectMalformedQuery.ts';
import { readJsonBody } from './http/readJsonBody.ts';
import { storageUnavailable } from './http/storageUnavailable.ts';
import { createRequestValidator } from './http/validateRequest.ts';
import { createAuthThrottle, NO_AUTH_THROTTLE } from './ratelimit/authThrottle.ts';
import { RATE_LIMIT_HEADERS, rateLimit } from './ratelimit/middleware.ts';
import { assetRoutes } from './routes/assets.ts';
import { authRoutes } from './routes/auth.ts';
import { dictionaryRoutes } from './routes/dictionary.ts';
import { feedRoutes } from './routes/feeds.ts';
import { healthRoutes } from './routes/health.ts';
import { itemRoutes } from './routes/items.ts';
import { routeExportRoutes } from './routes/routeExports.ts';
import type { RouteMiddleware } from './routes/routeMiddleware.ts';
import { tokenRoutes } from './routes/tokens.ts';
import type { Services } from './services.ts';

// @implements VER-001
export const BASE_PATH = '/api';

/** The HTTP app over `services`: middleware built once from the spec and the config, then the route modules. */
export function createApp(services: Services): express.Express {
  const { config, db, now, rateLimitStores } = services;
  const doc = loadOpenApiDocument();
  const middleware: RouteMiddleware = {
    validate: createRequestValidator(doc),
    auth: authenticate({
      resolve: createBearerResolver({ db, sessions: services.sessions, cache: services.tokenCache }),
    }),
    // @implements RATE-001
    rateLimited: config.rateLimitEnabled ? rateLimit({ store: rateLimitStores.lists }) : (_req, _res, next) => next(),
    authThrottle: config.rateLimitEnabled ? createAuthThrottle({ store: rateLimitStores.auth }) : NO_AUTH_THROTTLE,
    sizeCap: { max: PAGE_SIZE.maximum, enforcedFrom: config.sizeCapEnforcedFrom, now },
  };
  // Each route module takes what it declares of these.
  const context = { ...services, ...middleware };

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.set('query parser', 'simple');
  // No automatic ETag on JSON answers: the interface defines none for them, and hashing every
  // answer (a 2000-item page is 10+ MB) costs each request more than it could save. Asset files
  // set their own.
  app.set('etag', false);
  app.use(
    rejectUnknownRoutes({
      doc,
      basePath: BASE_PATH,
      rateLimitHeaders: config.rateLimitEnabled ? RATE_LIMIT_HEADERS : undefined,
    }),
  ); // 404/405 before a body is read (DEC-ERR-005)
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
  app.use(
    readJsonBody({
      preAuthBytes: config.preAuthBodyMaxBytes,
      bodyTimeoutMs: config.jsonBodyTimeoutMs,
      discard: { maxBytes: config.preAuthBodyMaxBytes, maxMs: SECOND, lingerMs: SECOND },
    }),
  );

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
  app.use(errorHandler({ logger: services.logger }));
  return app;
}
