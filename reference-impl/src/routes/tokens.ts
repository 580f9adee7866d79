// @implements TOKEN-003
// /accounts/{accountId}/tokens…: token administration and the delivery log (TOKEN-003..013,
// DEC-AUTH-005..011, DEC-HOOK-007/009/011). HTTP in, HTTP out; the rules are in tokens/tokenAdmin.ts.
import { Router, type RequestHandler, type Response } from 'express';
import { ADMIN_ROLES, principalOf, requireRoles } from '../http/principal.ts';
import { validated } from '../http/validateRequest.ts';
import {
  createAccountToken,
  deleteAccountToken,
  listTokenDeliveries,
  rotateTokenSecret,
  updateAccountToken,
  type CreateTokenInput,
  type TokenAdminDeps,
  type UpdateTokenInput,
} from '../tokens/tokenAdmin.ts';
import type { RouteMiddleware } from './routeMiddleware.ts';
import type { Services } from '../services.ts';

const TOKENS = '/accounts/:accountId/tokens';
const TOKEN = `${TOKENS}/:tokenId`;
const INSECURE_URL = Symbol('insecureCallBackUrl');

/** What the tokenRoutes are built from. */
export type TokenRouteDeps = Pick<Services, 'config' | 'db' | 'now' | 'secrets' | 'tokenCache'> &
  Pick<RouteMiddleware, 'auth' | 'validate'>;

export function tokenRoutes(ctx: TokenRouteDeps): Router {
  const deps: TokenAdminDeps = {
    db: ctx.db,
    now: ctx.now,
    secrets: ctx.secrets,
    allowInsecureCallbacks: ctx.config.allowInsecureCallbacks,
    tokensChanged: () => ctx.tokenCache.clear(),
  };
  const admin = [ctx.auth, requireRoles(ADMIN_ROLES)];
  const relax = allowHttpCallbacks(ctx.config.allowInsecureCallbacks);
  const router = Router();

  // @implements TOKEN-013
  router.post(TOKENS, ...admin, relax, ctx.validate('createAccountToken'), async (req, res) => {
    const input = withCallbackUrl(res, validated(res).body as CreateTokenInput);
    const view = await createAccountToken(deps, principalOf(res), String(req.params.accountId), input);
    res.status(201).set('Cache-Control', 'no-store').json(view);
  });

  router.put(TOKEN, ...admin, relax, ctx.validate('updateAccountToken'), async (req, res) => {
    const input = withCallbackUrl(res, validated(res).body as UpdateTokenInput);
    const view = await updateAccountToken(
      deps,
      principalOf(res),
      String(req.params.accountId),
      String(req.params.tokenId),
      input,
    );
    res.set('Cache-Control', 'no-store').json(view);
  });

  router.delete(TOKEN, ...admin, ctx.validate('deleteAccountToken'), async (req, res) => {
    await deleteAccountToken(deps, principalOf(res), String(req.params.accountId), String(req.params.tokenId));
    res.status(204).end();
  });

  router.post(`${TOKEN}/rotate-secret`, ...admin, ctx.validate('rotateTokenSecret'), async (req, res) => {
    const view = await rotateTokenSecret(
      deps,
      principalOf(res),
      String(req.params.accountId),
      String(req.params.tokenId),
    );
    res.set('Cache-Control', 'no-store').json(view);
  });

  router.get(`${TOKEN}/deliveries`, ...admin, ctx.validate('listTokenDeliveries'), async (req, res) => {
    const query = validated(res).query as { size?: number; page?: number };
    const page = { size: query.size ?? 20, page: query.page ?? 0 };
    res.json(
      await listTokenDeliveries(deps, principalOf(res), String(req.params.accountId), String(req.params.tokenId), page),
    );
  });

  return router;
}

/**
 * The spec's callBackUrl pattern asks for https. ALLOW_INSECURE_CALLBACKS (local development
 * and tests) promises http too, so then an http: URL passes the schema check in its https form
 * and validateCallbackUrl judges the real one.
 */
function allowHttpCallbacks(allow: boolean): RequestHandler {
  return function allowHttpCallbacksHandler(req, res, next) {
    const body = req.body as Record<string, unknown> | undefined;
    const url = body?.callBackUrl;
    if (allow && typeof url === 'string' && /^http:\/\//i.test(url)) {
      (res.locals as Record<symbol, unknown>)[INSECURE_URL] = url;
      req.body = { ...body, callBackUrl: `https://${url.slice('http://'.length)}` };
    }
    next();
  };
}

function withCallbackUrl<T extends { callBackUrl?: string }>(res: Response, input: T): T {
  const original = (res.locals as Record<symbol, unknown>)[INSECURE_URL];
  return typeof original === 'string' ? { ...input, callBackUrl: original } : input;
}
