import { Router, type Response } from 'express';
import { HttpError } from '../http/HttpError.ts';
import { principalOf } from '../http/principal.ts';
import { validated } from '../http/validateRequest.ts';
import type { AuthAttempt } from '../ratelimit/authThrottle.ts';
import { refreshSession } from '../sessions/refreshSession.ts';
import { signIn } from '../sessions/signIn.ts';
import { signOut } from '../sessions/signOut.ts';
import type { TokenResponse } from '../sessions/tokenPair.ts';
import type { RouteMiddleware } from './routeMiddleware.ts';
import type { Services } from '../services.ts';

/** What the authRoutes are built from. */
export type AuthRouteDeps = Pick<Services, 'config' | 'db' | 'now'> &
  Pick<RouteMiddleware, 'auth' | 'validate' | 'authThrottle'>;

// @implements SESSION-001
/** POST /auth/signin, /auth/refresh and /auth/logout (SESSION-001..003, DEC-AUTH-001..003, 012..014, 016). */
export function authRoutes(context: AuthRouteDeps): Router {
  const router = Router();
  const deps = { db: context.db, secret: context.config.sessionSecret, now: context.now };
  const throttle = context.authThrottle;

  // DEC-AUTH-016: an attempt holds a slot of its client IP (and user name) while it is checked;
  // only a 401 keeps it. A 400 never reaches the throttle; a refused attempt checks nothing.
  router.post('/auth/signin', context.validate('signIn'), async (req, res) => {
    const { username, password } = validated(res, 'signIn').body;
    const attempt = await throttle.begin('signin', req, username);
    const tokens = await keepSlotOnlyIf(
      (found) => found === null,
      attempt,
      () => signIn(deps, { username, password }),
    );
    if (tokens === null) throw unauthorized('invalid username or password', 'Bearer');
    sendTokens(res, tokens);
  });

  router.post('/auth/refresh', context.validate('refreshSession'), async (req, res) => {
    const { refresh_token: refreshToken } = validated(res, 'refreshSession').body;
    const attempt = await throttle.begin('refresh', req);
    const outcome = await keepSlotOnlyIf(
      (result) => !result.ok,
      attempt,
      () => refreshSession(deps, refreshToken),
    );
    if (!outcome.ok) {
      throw unauthorized(
        outcome.reason === 'reused'
          ? 'refresh token was already used; the session is revoked'
          : 'refresh token is unknown, expired or revoked',
        'Bearer error="invalid_token"',
      );
    }
    sendTokens(res, outcome.tokens);
  });

  // @implements SESSION-002, VER-004
  router.post('/auth/logout', context.auth, context.validate('signOut'), async (_req, res) => {
    await signOut(deps, principalOf(res));
    res.json({ message: "Signed out; the session's access and refresh tokens are revoked." });
  });

  return router;
}

/** Runs `check`; the attempt keeps its slots only when the attempt failed (a throw gives them back). */
async function keepSlotOnlyIf<T>(
  failed: (result: T) => boolean,
  attempt: AuthAttempt,
  check: () => Promise<T>,
): Promise<T> {
  let result: T;
  try {
    result = await check();
  } catch (error) {
    await attempt.release();
    throw error;
  }
  if (!failed(result)) await attempt.release();
  return result;
}

/** DEC-AUTH-014: credentials are never cached. */
function sendTokens(res: Response, tokens: TokenResponse): void {
  res.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' }).json(tokens);
}

function unauthorized(message: string, challenge: string): HttpError {
  return new HttpError(401, { message, headers: { 'WWW-Authenticate': challenge } });
}
