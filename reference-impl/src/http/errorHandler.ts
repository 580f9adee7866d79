import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { HttpError } from './HttpError.ts';
import { HTTP_METHODS, type JsonObject } from './openapiDocument.ts';

/** Errors the JSON body parser and the router raise, with the status the client gets (DEC-ERR-003). */
function bodyParserError(error: unknown): HttpError | undefined {
  const type = (error as { type?: unknown }).type;
  if (type === 'entity.parse.failed') return new HttpError(400, { message: `Request body is not valid JSON: ${(error as Error).message}`, cause: error });
  if (type === 'entity.too.large') return new HttpError(413, { message: `Request body exceeds the limit of ${(error as { limit?: number }).limit ?? '?'} bytes`, cause: error });
  // DEC-ERR-003: a wrong Content-Type (here its charset) is a 400; 415 belongs to POST /assets only.
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') return new HttpError(400, { message: `${(error as Error).message}; JSON bodies must be UTF-8 without a content coding other than gzip, deflate or br`, cause: error });
  if (type === 'request.aborted') return new HttpError(400, { message: 'Request body was aborted', cause: error });
  // The router cannot percent-decode a path segment (`/events/%E0%A4%A`): the client's error, not a 500.
  if (error instanceof URIError && (error as { status?: unknown }).status === 400) return new HttpError(400, { message: `${error.message}: path segments must be percent-encoded UTF-8`, cause: error });
  return undefined;
}

/**
 * Renders every HttpError in the spec's error shape (DEC-ERR-001). Headers already on the response
 * (the rate limit headers, for example) are kept. Anything else is a logged 500 without internals.
 */
export function errorHandler(options: { logger: Logger }): ErrorRequestHandler {
  return function renderError(error: unknown, req, res, next) {
    if (res.headersSent) {
      next(error);
      return;
    }
    const httpError = error instanceof HttpError ? error : bodyParserError(error);
    if (httpError !== undefined) {
      for (const [name, value] of Object.entries(httpError.headers)) res.setHeader(name, value);
      if (httpError.status >= 500) options.logger.error({ err: httpError.cause ?? httpError, method: req.method, url: req.originalUrl }, httpError.message);
      res.status(httpError.status).json(httpError.toBody());
      return;
    }
    options.logger.error({ err: error, method: req.method, url: req.originalUrl }, 'unhandled error');
    res.status(500).json(new HttpError(500, { message: 'Internal server error' }).toBody());
  };
}

/** 405 with `Allow` for a known path and an unknown method; 404 for an unknown path. */
export function notFound(options: { doc: JsonObject; basePath: string }): RequestHandler {
  const templates = Object.entries((options.doc.paths ?? {}) as Record<string, JsonObject>).map(([path, item]) => ({
    pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
    allow: HTTP_METHODS.filter((m) => item[m] !== undefined).map((m) => m.toUpperCase()),
  }));
  return function notFoundHandler(req) {
    const path = req.path.startsWith(options.basePath) ? req.path.slice(options.basePath.length) : undefined;
    const match = path === undefined ? undefined : templates.find((t) => t.pattern.test(path));
    if (match !== undefined && !match.allow.includes(req.method)) {
      throw new HttpError(405, { message: `${req.method} is not allowed on ${req.path} (allowed: ${match.allow.join(', ')})`, headers: { Allow: match.allow.join(', ') } });
    }
    throw new HttpError(404, { message: `No route ${req.method} ${req.path}` });
  };
}
