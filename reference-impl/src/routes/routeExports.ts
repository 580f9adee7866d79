import { Router, type Request, type Response } from 'express';
import { ENTITY_TYPE } from '../../../generated/constants.ts';
import { GEOJSON_MEDIA_TYPE, routeToGeoJson } from '../exports/geojson.ts';
import { GPX_MEDIA_TYPE, routeToGpx } from '../exports/gpx.ts';
import { routeData, type RouteData } from '../exports/routeData.ts';
import { principalOf } from '../http/principal.ts';
import { validated } from '../http/validateRequest.ts';
import { itemNotFound } from '../items/access.ts';
import type { RouteMiddleware } from './routeMiddleware.ts';
import type { Services } from '../services.ts';

// @implements ROUTE-001, ROUTE-002
// GET /routes/{id}/geojson and /gpx (ROUTE-001, ROUTE-002): detail reads, so not rate limited and
// with the detail read's 404 for an unknown, out-of-scope or soft-deleted route (DEC-ITEM-004,
// DEC-ITEM-027).

/** What the routeExportRoutes are built from. */
export type RouteExportRouteDeps = Pick<Services, 'config' | 'itemReads'> & Pick<RouteMiddleware, 'auth' | 'validate'>;

export function routeExportRoutes(ctx: RouteExportRouteDeps): Router {
  const router = Router();
  const resourceUrl = (id: string) => `${ctx.config.publicBaseUrl}/routes/${id}`;

  router.get('/routes/:id/geojson', ctx.auth, ctx.validate('getRouteGeoJson'), async (_req: Request, res: Response) => {
    const route = await readableRoute(ctx.itemReads, res, 'getRouteGeoJson');
    res.type(GEOJSON_MEDIA_TYPE).send(JSON.stringify(routeToGeoJson(route)));
  });

  router.get('/routes/:id/gpx', ctx.auth, ctx.validate('getRouteGpx'), async (_req: Request, res: Response) => {
    const route = await readableRoute(ctx.itemReads, res, 'getRouteGpx');
    res.type(GPX_MEDIA_TYPE).send(routeToGpx(route, { resourceUrl: resourceUrl(route.id) }));
  });
  return router;
}

async function readableRoute(
  itemReads: Services['itemReads'],
  res: Response,
  operationId: 'getRouteGeoJson' | 'getRouteGpx',
): Promise<RouteData> {
  const { id } = validated(res, operationId).params;
  const item = await itemReads.readableItem(ENTITY_TYPE.ROUTE, id, principalOf(res));
  if (item === null) throw itemNotFound('routes', id);
  return routeData(item);
}
