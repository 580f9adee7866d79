import type { RequestHandler } from 'express';
import type { RequestValidator, SizeCapRule } from '../http/validateRequest.ts';
import type { AuthThrottle } from '../ratelimit/authThrottle.ts';

/** The request middleware that createApp builds once from the spec and the configuration; route modules mount it. */
export interface RouteMiddleware {
  /** Middleware validating the request of an operation against the spec. */
  validate: RequestValidator;
  /** Rejects requests without a valid bearer token (401). */
  auth: RequestHandler;
  /** The per-IP limit of the list endpoints and `/dictionary` (RATE-001); a no-op when disabled. */
  rateLimited: RequestHandler;
  /** Failed sign-ins and refreshes per client IP and user name (DEC-AUTH-016); off with the rate limit. */
  authThrottle: AuthThrottle;
  /** LIMIT-002/003 for the `size` of the item lists. */
  sizeCap: SizeCapRule;
}
