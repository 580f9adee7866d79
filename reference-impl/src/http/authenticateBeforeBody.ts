import type { IncomingMessage } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import { discardUnreadBody, type DiscardUnreadBodyOptions } from './discardUnreadBody.ts';
import { routesOf, specRoutes } from './errorHandler.ts';
import type { JsonObject } from './openapiDocument.ts';

export interface AuthenticateBeforeBodyOptions {
  doc: JsonObject;
  basePath: string;
  /** The bearer check of the routes (authenticate()); it sets the principal they then find. */
  auth: RequestHandler;
  /** What happens to the body of a request refused here: read and dropped within these caps. */
  discard: DiscardUnreadBodyOptions;
}

/**
 * Checks the bearer of a request that carries a body before anything reads the body, so that a
 * caller without a valid token cannot make the service hold it: a 401 is answered at once and the
 * body is dropped (within `discard`'s caps, then the connection is closed). Requests without a
 * body keep the order of their route (the per-IP limit before authentication, DEC-RATE-006), and
 * the operations without a bearer (`security: []`) pass on to the smaller pre-auth body limit.
 */
export function authenticateBeforeBody(options: AuthenticateBeforeBodyOptions): RequestHandler {
  const routes = specRoutes(options.doc);
  return async function authenticateBeforeBodyHandler(req, res, next) {
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    const open = routesOf(routes, options.basePath, req.path).some((route) => route.open.includes(method));
    if (!carriesBody(req) || open) {
      next();
      return;
    }
    try {
      await run(options.auth, req, res);
    } catch (error) {
      discardUnreadBody(req, res, options.discard);
      throw error;
    }
    next();
  };
}

/** Whether a body follows the headers (RFC 9112 section 6.3). */
function carriesBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function run(handler: RequestHandler, req: Request, res: Response): Promise<void> {
  return new Promise((resolve, reject) => {
    const result = handler(req, res, (error?: unknown) => (error === undefined ? resolve() : reject(error)));
    Promise.resolve(result).catch(reject);
  });
}
