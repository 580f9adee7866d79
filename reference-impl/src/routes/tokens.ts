// @implements TOKEN-003
// /accounts/{accountId}/tokens…: token administration and the delivery log (TOKEN-003..013,
// DEC-AUTH-005..011, DEC-HOOK-007/009/011). HTTP in, HTTP out; the rules are in tokens/tokenAdmin.ts.
import { Router, type RequestHandler, type Response } from 'express';
import { DELIVERIES_PAGE_SIZE } from '../../../generated/constants.ts';
import { ADMIN_ROLES, principalOf, requireRoles } from '../http/principal.ts';
import { validated } from '../http/validateRequest.ts';
import {
  createAccountToken,
  deleteAccountToken,
  listTokenDeliveries,
  rotateTokenSecret,
  updateAccountToken,
  type TokenAdminDeps,
} from '../tokens/tokenAdmin.ts';
import type { RouteMiddleware } from './routeMiddleware.ts';
import type { Services } from '../services.ts';

const TOKENS = '/accounts/:accountId/tokens';
const TOKEN = `${TOKENS}/:tokenId`;
/** The `res.locals` key of an http: callback URL that passed the schema in its https form. */
const INSECURE_URL = 'insecureCallBackUrl';

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
  router.post(TOKENS, ...admin, relax, ctx.validate('createAccountToken'), async (_req, res) => {
    const { params, body } = validated(res, 'createAccountToken');
    const view = await createAccountToken(deps, principalOf(res), params.accountId, withCallbackUrl(res, body));
    res.status(201).set('Cache-Control', 'no-store').json(view);
  });

  router.put(TOKEN, ...admin, relax, ctx.validate('updateAccountToken'), async (_req, res) => {
    const { params, body } = validated(res, 'updateAccountToken');
    const input = withCallbackUrl(res, body);
    const view = await updateAccountToken(deps, principalOf(res), params.accountId, params.tokenId, input);
    res.set('Cache-Control', 'no-store').json(view);
  });

  router.delete(TOKEN, ...admin, ctx.validate('deleteAccountToken'), async (_req, res) => {
    const { params } = validated(res, 'deleteAccountToken');
    await deleteAccountToken(deps, principalOf(res), params.accountId, params.tokenId);
    res.status(204).end();
  });

  router.post(`${TOKEN}/rotate-secret`, ...admin, ctx.validate('rotateTokenSecret'), async (_req, res) => {
    const { params } = validated(res, 'rotateTokenSecret');
    const view = await rotateTokenSecret(deps, principalOf(res), params.accountId, params.tokenId);
    res.set('Cache-Control', 'no-store').json(view);
  });

  router.get(`${TOKEN}/deliveries`, ...admin, ctx.validate('listTokenDeliveries'), async (_req, res) => {
    const { params, query } = validated(res, 'listTokenDeliveries');
    const page = { size: query.size ?? DELIVERIES_PAGE_SIZE.default, page: query.page ?? 0 };
    res.json(await listTokenDeliveries(deps, principalOf(res), params.accountId, params.tokenId, page));
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
    const body: unknown = req.body;
    if (allow && typeof body === 'object' && body !== null && 'callBackUrl' in body) {
      const url = body.callBackUrl;
      if (typeof url === 'string' && /^http:\/\//i.test(url)) {
        res.locals[INSECURE_URL] = url;
        req.body = { ...body, callBackUrl: `https://${url.slice('http://'.length)}` };
      }
    }
    next();
  };
}

function withCallbackUrl<T extends { callBackUrl?: string }>(res: Response, input: T): T {
  const original: unknown = res.locals[INSECURE_URL];
  return typeof original === 'string' ? { ...input, callBackUrl: original } : input;
}
