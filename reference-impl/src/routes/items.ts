import { Router, type Request, type Response } from 'express';
import { COLLECTION_NAMES, COLLECTIONS, type Collection } from '../domain/entityRules.ts';
import type { OperationId } from '../http/operationInput.ts';
import { principalOf } from '../http/principal.ts';
import { limitedBy } from '../ratelimit/middleware.ts';
import { sendJson, streamJson } from '../http/sendJson.ts';
import { validated } from '../http/validateRequest.ts';
import { itemNotFound } from '../items/access.ts';
import { createItem, replaceItem, softDeleteItem } from '../items/itemWrites.ts';
import { wantsFreshAnswer } from '../items/listPageCache.ts';
import { listQueryOf } from '../items/listQuery.ts';
import { storedItemJson } from '../items/renderItem.ts';
import type { ItemWriteDeps } from '../items/writeItem.ts';
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
      ctx.validate(ops.create),
      async (_req: Request, res: Response) => {
        const { item, rendering } = await createItem(ctx.db, writeDeps, {
          collection,
          body: validated(res, ops.create).body,
          writer: principalOf(res),
        });
        sendJson(res.status(201).location(detailUrl(item.id)), storedItemJson(item, rendering.body));
      },
    );

    // @implements DETAIL-001
    // @implements DETAIL-002
    // Detail reads: not rate limited, not capped (DETAIL-002): the list's parameters, `size` too, are
    // accepted and ignored; 404 for whatever the caller may not see (DEC-ITEM-004).
    router.get(
      `/${collection}/:id`,
      ...limitedBy(ops.get, ctx.rateLimited),
      ctx.auth,
      ctx.validate(ops.get, { ignoreQueryOf: ops.list }),
      async (_req: Request, res: Response) => {
        const { id } = validated(res, ops.get).params;
        const json = await ctx.itemReads.detailJson(entitytype, id, principalOf(res));
        if (json === null) throw itemNotFound(collection, id);
        sendJson(res, json);
      },
    );

    router.put(
      `/${collection}/:id`,
      ...limitedBy(ops.update, ctx.rateLimited),
      ctx.auth,
      ctx.validate(ops.update),
      async (_req: Request, res: Response) => {
        const request = validated(res, ops.update);
        const { item, rendering } = await replaceItem(ctx.db, writeDeps, {
          collection,
          id: request.params.id,
          body: request.body,
          writer: principalOf(res),
        });
        sendJson(res, storedItemJson(item, rendering.body));
      },
    );

    router.delete(
      `/${collection}/:id`,
      ...limitedBy(ops.remove, ctx.rateLimited),
      ctx.auth,
      ctx.validate(ops.remove),
      async (_req: Request, res: Response) => {
        await softDeleteItem(ctx.db, writeDeps, {
          collection,
          id: validated(res, ops.remove).params.id,
          writer: principalOf(res),
        });
        res.status(204).end();
      },
    );
  }
  return router;
}
