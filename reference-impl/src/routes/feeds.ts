import { Router, type Request, type Response } from 'express';
import type { RunScope } from '../feeds/collectEntries.ts';
import type { FeedDefinition } from '../feeds/feedConfig.ts';
import { FeedRunInProgressError } from '../feeds/feedRuns.ts';
import { renderFeedRun } from '../feeds/renderFeedRun.ts';
import { badRequest, HttpError } from '../http/HttpError.ts';
import { ADMIN_ROLES, isSuperAdmin, principalOf, requireRoles, type Principal } from '../http/principal.ts';
import type { OperationInput } from '../http/operationInput.ts';
import { validated } from '../http/validateRequest.ts';
import type { RouteMiddleware } from './routeMiddleware.ts';
import type { Services } from '../services.ts';

// @implements FEED-003, FEED-007
// Feed administration (FEED-003…FEED-007, DEC-FEED-002, DEC-FEED-004): admins run their
// account's feeds; super admins any feed. Another account's feed is a 404, like an unknown one.

/** What the feedRoutes are built from. */
export type FeedRouteDeps = Pick<Services, 'config' | 'feedService'> & Pick<RouteMiddleware, 'auth' | 'validate'>;

export function feedRoutes(ctx: FeedRouteDeps): Router {
  const service = ctx.feedService;
  const feeds = new Map(service.feeds.map((feed) => [feed.id, feed]));
  const { runs } = service;
  const runUrl = (feedId: string, runId: string) =>
    `${ctx.config.publicBaseUrl}/feeds/${encodeURIComponent(feedId)}/runs/${runId}`;

  function feedFor(principal: Principal, feedId: string): FeedDefinition {
    const feed = feeds.get(feedId);
    if (feed === undefined || (feed.accountId !== principal.accountId && !isSuperAdmin(principal))) {
      throw new HttpError(404, { message: `No feed with id ${feedId}` });
    }
    return feed;
  }

  const router = Router();
  router.post(
    '/feeds/:feedID/fetchAndConvertOnce',
    ctx.auth,
    requireRoles(ADMIN_ROLES),
    ctx.validate('fetchAndConvertFeedOnce'),
    async (_req: Request, res: Response) => {
      const { params, query } = validated(res, 'fetchAndConvertFeedOnce');
      const feed = feedFor(principalOf(res), params.feedID);
      const scope = scopeOf(feed, query);
      let started;
      try {
        started = await runs.start(feed, { trigger: 'manual', scope });
      } catch (error) {
        if (error instanceof FeedRunInProgressError) throw new HttpError(409, { message: error.message });
        throw error;
      }
      // The dev loop (size or externalID) waits for its report; a full run answers at once (DEC-FEED-002).
      if (scope.size !== undefined || scope.externalID !== undefined) {
        res.json(renderFeedRun(await started.done));
        return;
      }
      res.status(202).location(runUrl(feed.id, started.run.runId)).json(renderFeedRun(started.run));
    },
  );

  router.get(
    '/feeds/:feedID/runs/:runId',
    ctx.auth,
    requireRoles(ADMIN_ROLES),
    ctx.validate('getFeedRun'),
    async (_req: Request, res: Response) => {
      const { params } = validated(res, 'getFeedRun');
      const feed = feedFor(principalOf(res), params.feedID);
      const run = await service.findRun(feed.id, params.runId);
      if (run === null) throw new HttpError(404, { message: `No run ${params.runId} of feed ${feed.id}` });
      res.json(renderFeedRun(run));
    },
  );
  return router;
}

// @implements LIMIT-004
/** The run's scope from the validated query; `size` is dropped when `externalID` is given (FEED-006). */
function scopeOf(feed: FeedDefinition, query: OperationInput<'fetchAndConvertFeedOnce'>['query']): RunScope {
  const scope: RunScope = {};
  if (query.externalID !== undefined) scope.externalID = query.externalID;
  else if (query.size !== undefined) scope.size = query.size;
  if (query.feedInfoId !== undefined) {
    if (feed.subFeeds.length > 0 && !feed.subFeeds.some((s) => s.feedInfoId === query.feedInfoId)) {
      throw badRequest(
        'query/feedInfoId',
        `feedInfoId ${JSON.stringify(query.feedInfoId)} is not a sub-feed of ${feed.id} (known: ${feed.subFeeds.map((s) => s.feedInfoId).join(', ')})`,
      );
    }
    scope.feedInfoId = query.feedInfoId;
  }
  return scope;
}
