import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { clientErrorOf } from './clientErrorOf.ts';
import { HttpError } from './HttpError.ts';
import { HTTP_METHODS } from '../../../spec/index.ts';
import type { JsonObject } from './openapiDocument.ts';

/** zlib's and brotli's codes for input that is not what its Content-Encoding says, or is cut off. */
const DECOMPRESSION_ERROR = /^(Z_|ERR__)/;

/** The parser's or zlib's name for what went wrong (`entity.parse.failed`, `Z_DATA_ERROR`). */
function reasonOf(error: unknown): string {
  const { type, code } = error as { type?: unknown; code?: unknown };
  return String(type ?? code ?? (error as Error).name);
}

/** Errors the JSON body parser and the router raise, with the status the client gets (DEC-ERR-003). */
function bodyParserError(error: unknown, contentEncoding: string | undefined): HttpError | undefined {
  const type = (error as { type?: unknown }).type;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && DECOMPRESSION_ERROR.test(code))
    return new HttpError(400, {
      message: `Request body is not valid ${contentEncoding ?? 'compressed'} data, as its Content-Encoding says: ${(error as Error).message}`,
      cause: error,
    });
  if (type === 'entity.parse.failed')
    return new HttpError(400, { message: `Request body is not valid JSON: ${(error as Error).message}`, cause: error });
  if (type === 'entity.too.large')
    return new HttpError(413, {
      message: `Request body exceeds the limit of ${(error as { limit?: number }).limit ?? '?'} bytes`,
      cause: error,
    });
  // DEC-ERR-003: a wrong Content-Type (here its charset) is a 400; 415 belongs to POST /assets only.
  if (type === 'encoding.unsupported' || type === 'charset.unsupported')
    return new HttpError(400, {
      message: `${(error as Error).message}; JSON bodies must be UTF-8 without a content coding other than gzip, deflate or br`,
      cause: error,
    });
  if (type === 'request.aborted') return new HttpError(400, { message: 'Request body was aborted', cause: error });
  // The router cannot percent-decode a path segment (`/events/%E0%A4%A`): the client's error, not a 500.
  if (error instanceof URIError && (error as { status?: unknown }).status === 400)
    return new HttpError(400, {
      message: `${error.message}: path segments must be percent-encoded UTF-8`,
      cause: error,
    });
  return undefined;
}

/**
 * Renders every HttpError in the spec's error shape (DEC-ERR-001). Headers already on the response
 * (the rate limit headers, for example) are kept. Anything else is a logged 500 without internals.
 */
export function errorHandler(options: { logger: Logger }): ErrorRequestHandler {
  return function renderError(error: unknown, req, res, _next) {
    if (res.headersSent) {
      // Too late for an error answer: the connection is ended without finishing the one begun, so
      // that the client sees a broken answer, never a shorter one that looks whole.
      options.logger.error({ err: error, method: req.method, url: req.originalUrl }, 'error after the answer began');
      res.destroy();
      return;
    }
    const clientError = clientErrorOf(error);
    const readError = clientError === undefined ? bodyParserError(error, req.headers['content-encoding']) : undefined;
    const httpError = clientError ?? readError;
    if (httpError !== undefined) {
      // A body the client broke is worth a line for the operator, but no stack and no alarm; and
      // neither the message (a JSON error quotes the body) nor the query (it may hold a token).
      if (readError !== undefined && readError.status < 500)
        options.logger.info(
          { status: readError.status, method: req.method, path: req.path, reason: reasonOf(error) },
          'request body refused',
        );
      for (const [name, value] of Object.entries(httpError.headers)) res.setHeader(name, value);
      if (httpError.status >= 500 && httpError.expected)
        options.logger.info({ status: httpError.status, method: req.method, path: req.path }, httpError.message);
      else if (httpError.status >= 500)
        options.logger.error(
          { err: httpError.cause ?? httpError, method: req.method, url: req.originalUrl },
          httpError.message,
        );
      res.status(httpError.status).json(httpError.toBody());
      return;
    }
    options.logger.error({ err: error, method: req.method, url: req.originalUrl }, 'unhandled error');
    res.status(500).json(new HttpError(500, { message: 'Internal server error' }).toBody());
  };
}

export interface SpecRoute {
  pattern: RegExp;
  /** The spec's methods on the path, upper case (HEAD and OPTIONS are not operations). */
  allow: string[];
  /** Its methods whose operation is `x-rate-limited`. */
  limited: string[];
  /** Its methods whose operation takes no bearer (`security: []`). */
  open: string[];
}

/** The spec's path templates as patterns; case-insensitive and with an optional final slash, like Express' router. */
export function specRoutes(doc: JsonObject): SpecRoute[] {
  return Object.entries((doc.paths ?? {}) as Record<string, JsonObject>).map(([path, item]) => ({
    pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}/?$`, 'i'),
    allow: HTTP_METHODS.filter((m) => item[m] !== undefined).map((m) => m.toUpperCase()),
    limited: HTTP_METHODS.filter((m) => (item[m] as JsonObject | undefined)?.['x-rate-limited'] === true).map((m) =>
      m.toUpperCase(),
    ),
    open: HTTP_METHODS.filter((m) => {
      const security = (item[m] as JsonObject | undefined)?.security;
      return Array.isArray(security) && security.length === 0;
    }).map((m) => m.toUpperCase()),
  }));
}

/** The spec's routes whose template matches the request's path (none for a path outside the spec). */
export function routesOf(routes: readonly SpecRoute[], basePath: string, requestPath: string): SpecRoute[] {
  if (!requestPath.startsWith(basePath)) return [];
  const path = requestPath.slice(basePath.length);
  return routes.filter((r) => r.pattern.test(path));
}

/** The spec's methods on the matched routes, or undefined when none matched (a path outside the spec). */
function allowOf(matches: readonly SpecRoute[]): string[] | undefined {
  return matches.length === 0 ? undefined : [...new Set(matches.flatMap((r) => r.allow))];
}

function routeError(method: string, path: string, allow: string[] | undefined): HttpError {
  if (allow === undefined) return new HttpError(404, { message: `No route ${method} ${path}` });
  return new HttpError(405, {
    message: `${method} is not allowed on ${path} (allowed: ${allow.join(', ')})`,
    headers: { Allow: allow.join(', ') },
  });
}

export interface RejectUnknownRoutesOptions {
  doc: JsonObject;
  basePath: string;
  /**
   * The static rate limit headers when the per-IP limit is on. An `x-rate-limited` operation gets
   * them here, so that an answer given before its limiter runs (a body over 1 MiB or not
   * JSON) carries them too, like every answer of a limited endpoint (DEC-RATE-002).
   */
  rateLimitHeaders?: Readonly<Record<string, string>>;
}

/**
 * Answers the requests that are no operation of the spec (DEC-ERR-005) before anything reads
 * their body or checks a token: a path outside the spec is a 404, a method the spec does not
 * document on a known path a 405 with `Allow`, both in the error shape; OPTIONS on a known path is
 * a 204 with `Allow`. HEAD counts as GET. Every operation's request passes on.
 */
export function rejectUnknownRoutes(options: RejectUnknownRoutesOptions): RequestHandler {
  const routes = specRoutes(options.doc);
  return function rejectUnknownRoute(req, res, next) {
    const matches = routesOf(routes, options.basePath, req.path);
    const allow = allowOf(matches);
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    if (allow !== undefined && allow.includes(method)) {
      if (options.rateLimitHeaders !== undefined && matches.some((r) => r.limited.includes(method)))
        res.set(options.rateLimitHeaders);
      next();
      return;
    }
    if (allow !== undefined && req.method === 'OPTIONS') {
      res.status(204).setHeader('Allow', allow.join(', '));
      res.end();
      return;
    }
    next(routeError(req.method, req.path, allow));
  };
}

/**
 * The last handler: a request no route answered. rejectUnknownRoutes has already answered unknown
 * paths and methods, so what reaches here is a spec operation without a route: a 404.
 */
export function notFound(): RequestHandler {
  return function notFoundHandler(req) {
    throw new HttpError(404, { message: `No route ${req.method} ${req.path}` });
  };
}
