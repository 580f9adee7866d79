import { Router, type Request, type Response } from 'express';
import { COLLECTION_NAMES, COLLECTIONS, type Collection } from '../domain/entityRules.ts';
import type { OperationId } from '../http/operationInput.ts';
import { matchesIfNoneMatch } from '../http/preconditions.ts';
import { principalOf, requireWriteGrant } from '../http/principal.ts';
import { limitedBy } from '../ratelimit/middleware.ts';
import { sendJson, streamJson } from '../http/sendJson.ts';
import { validated } from '../http/validateRequest.ts';
import { itemNotFound } from '../items/access.ts';
import { itemEtag } from '../items/itemEtag.ts';
import { createItem, replaceItem, softDeleteItem } from '../items/itemWrites.ts';
import { wantsFreshAnswer } from '../items/listPageCache.ts';
import { listQueryOf } from '../items/listQuery.ts';
import { storedItemJson } from '../items/renderItem.ts';
import type { ItemWriteDeps, WriteItemResult } from '../items/writeItem.ts';
import type { RouteMiddleware } from './routeMiddleware.ts';
import type { Services } from '../services.ts';

// The five item collections (ITEM-028): list, create, detail read, replace, soft delete.

/** The spec's operationIds per collection. */
const OPERATIONS = {
  events: { list: 'listEvents', create: 'createEvent', get: 'getEvent', update: 'updateEvent', remove: 'deleteEvent' },
  locations: {
    list: 'listLocations',
    create: 'createLocation',
    get: 'getLocation',
    update: 'updateLocation',
    remove: 'deleteLocation',
  },
  venues: { list: 'listVenues', create: 'createVenue', get: 'getVenue', update: 'updateVenue', remove: 'deleteVenue' },
  eventgroups: {
    list: 'listEventGroups',
    create: 'createEventGroup',
    get: 'getEventGroup',
    update: 'updateEventGroup',
    remove: 'deleteEventGroup',
  },
  routes: { list: 'listRoutes', create: 'createRoute', get: 'getRoute', update: 'updateRoute', remove: 'deleteRoute' },
} satisfies Record<Collection, Record<'list' | 'create' | 'get' | 'update' | 'remove', OperationId>>;

/** What the itemRoutes are built from. */
export type ItemRouteDeps = Pick<Services, 'config' | 'db' | 'recordItemChange' | 'itemReads' | 'ontologies'> &
  Pick<RouteMiddleware, 'auth' | 'validate' | 'rateLimited' | 'sizeCap'>;

export function itemRoutes(ctx: ItemRouteDeps): Router {
  const router = Router();
  const { ontologies } = ctx;
  const writeDeps: ItemWriteDeps = { recordItemChange: ctx.recordItemChange, ontologies };
  /** A write's answer: the stored item as a detail read sends it, with its ETag (DEC-ITEM-031). */
  const sendWritten = (res: Response, { item, rendering }: WriteItemResult) =>
    sendJson(res.set('ETag', itemEtag(item, rendering.key, ontologies.baseKey)), storedItemJson(item, rendering.body));

  for (const collection of COLLECTION_NAMES) {
    const entitytype = COLLECTIONS[collection];
    const ops = OPERATIONS[collection];
    const detailUrl = (id: string) => `${ctx.config.publicBaseUrl}/${collection}/${id}`;

    // Rate limited per client IP before authentication, like an edge proxy: a 401 carries the rate headers too (RATE-001).
    // Answers are kept while the store's content is unchanged (items/listPageCache.ts).
    router.get(
      `/${collection}`,
      ...limitedBy(ops.list, ctx.rateLimited),
      ctx.auth,
      ctx.validate(ops.list, { sizeCap: ctx.sizeCap }),
      async (req: Request, res: Response) => {
        const { query } = validated(res, ops.list);
        const fresh = wantsFreshAnswer({ cacheControl: req.get('cache-control'), pragma: req.get('pragma') });
        // Written while it is made: the client reads the first items while the last are written.
        await streamJson(
          res,
          await ctx.itemReads.listPage(listQueryOf(query, entitytype, principalOf(res)), { fresh }),
        );
      },
    );

    // @implements WRITE-002
    router.post(
      `/${collection}`,
      ...limitedBy(ops.create, ctx.rateLimited),
      ctx.auth,
      requireWriteGrant(), // DEC-AUTH-020, before the body is validated
      ctx.validate(ops.create),
      async (_req: Request, res: Response) => {
        const written = await createItem(ctx.db, writeDeps, {
          collection,
          body: validated(res, ops.create).body,
          writer: principalOf(res),
        });
        sendWritten(res.status(201).location(detailUrl(written.item.id)), written);
      },
    );

    // @implements DETAIL-001
    // @implements DETAIL-002
    // Detail reads: not rate limited, not capped (DETAIL-002): the list's parameters, `size` too, are
    // accepted and ignored; 404 for whatever the caller may not see (DEC-ITEM-004). A strong ETag,
    // and 304 for an If-None-Match that holds it (DEC-ITEM-031).
    router.get(
      `/${collection}/:id`,
      ...limitedBy(ops.get, ctx.rateLimited),
      ctx.auth,
      ctx.validate(ops.get, { ignoreQueryOf: ops.list }),
      async (req: Request, res: Response) => {
        const { id } = validated(res, ops.get).params;
        const detail = await ctx.itemReads.detail(entitytype, id, principalOf(res));
        if (detail === null) throw itemNotFound(collection, id);
        res.set('ETag', detail.etag);
        if (matchesIfNoneMatch(req.get('if-none-match'), detail.etag)) {
          res.status(304).end();
          return;
        }
        sendJson(res, detail.json);
      },
    );

    router.put(
      `/${collection}/:id`,
      ...limitedBy(ops.update, ctx.rateLimited),
      ctx.auth,
      ctx.validate(ops.update),
      async (req: Request, res: Response) => {
        const request = validated(res, ops.update);
        const written = await replaceItem(ctx.db, writeDeps, {
          collection,
          id: request.params.id,
          body: request.body,
          writer: principalOf(res),
          ifMatch: req.get('if-match'),
        });
        sendWritten(res, written);
      },
    );

    router.delete(
      `/${collection}/:id`,
      ...limitedBy(ops.remove, ctx.rateLimited),
      ctx.auth,
      ctx.validate(ops.remove),
      async (req: Request, res: Response) => {
        await softDeleteItem(ctx.db, writeDeps, {
          collection,
          id: validated(res, ops.remove).params.id,
          writer: principalOf(res),
          ifMatch: req.get('if-match'),
        });
        res.status(204).end();
      },
    );
  }
  return router;
}
