// Per-client-IP rate limit for the list endpoints (RATE-001..006, DEC-RATE-001..004). Which
// routes are limited is the spec's business: the operations marked `x-rate-limited`
// (limitedBy below).

import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { RATE_LIMITED_OPERATIONS } from '../../../generated/constants.ts';
import { HttpError } from '../http/HttpError.ts';
import { BURST, RATE_PER_SECOND } from './gcra.ts';
import { clientKey } from './clientKey.ts';
import type { RateLimitStore } from './store.ts';

// @implements RATE-006
/** Static on every answer of a limited endpoint, 2xx, 4xx and 429 alike (DEC-RATE-002). */
export const RATE_LIMIT_HEADERS: Readonly<Record<string, string>> = {
  'X-RateLimit-Limit': String(RATE_PER_SECOND),
  'X-RateLimit-Policy': `${RATE_PER_SECOND};w=1;burst=${BURST}`,
};

export interface RateLimitOptions {
  /** Must not throw: the Redis store falls back to memory by itself. */
  store: RateLimitStore;
  /** Epoch ms for tests; absent, the store's clock decides (Redis TIME for the Redis store). */
  now?: () => number;
  /** Defaults to the client IP per DEC-RATE-004. */
  keyOf?: (req: Request) => string;
}

function rateLimitMessage(retryAfterSeconds: number): string {
  return `rate limit exceeded: ${RATE_PER_SECOND} requests per second with a burst of ${BURST}; retry after ${retryAfterSeconds} s`;
}

// @implements RATE-004
export function rateLimit(options: RateLimitOptions): RequestHandler {
  const keyOf = options.keyOf ?? clientKey;
  const { store, now } = options;

  return async function rateLimitMiddleware(req: Request, res: Response, next: NextFunction): Promise<void> {
    res.set(RATE_LIMIT_HEADERS);
    const decision = await store.take(keyOf(req), now?.());
    if (decision.allowed) return next();
    // @implements ERR-005
    // Throttling is 429 with the error shape (DEC-RATE-003, ERR-005), never 503.
    next(
      new HttpError(429, {
        message: rateLimitMessage(decision.retryAfterSeconds),
        headers: { 'Retry-After': String(decision.retryAfterSeconds) },
      }),
    );
  };
}

/** The limiter when the spec marks the operation `x-rate-limited`, else nothing: spread it into a route. */
export function limitedBy(operationId: string, limiter: RequestHandler): RequestHandler[] {
  return (RATE_LIMITED_OPERATIONS as readonly string[]).includes(operationId) ? [limiter] : [];
}
