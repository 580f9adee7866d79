// A route with waypoints and points of interest, for the GeoJSON and GPX checks. The interface
// names routeInfo's contents but no fields: the route is written in the operator's model's fields
// (plotted `routeCoordinates` of `{lat, lng}`, `pois` with a `coordinate`), which this
// description takes too (DEC-ITEM-016).

import { WORKFLOW_STATUS } from '../../generated/constants.ts';
import type { CheckContext } from '../engine/runtime/context.ts';
import { createItem } from './items.ts';
import type { CreatedItem } from './items.ts';

export interface Point {
  lon: number;
  lat: number;
}

export const WAYPOINTS: readonly Point[] = [
  { lon: 4.88403, lat: 52.37456 },
  { lon: 4.8912, lat: 52.3731 },
  { lon: 4.90025, lat: 52.37305 },
  { lon: 4.90453, lat: 52.36994 },
];

export const POINTS_OF_INTEREST: readonly (Point & { name: string; trcid: string })[] = [
  { lon: 4.8912, lat: 52.3731, name: 'Dam & Paleis', trcid: 'trc-conformance-poi-dam' },
  { lon: 4.90025, lat: 52.37305, name: 'Nieuwmarkt <Waag> "1488"', trcid: 'trc-conformance-poi-waag' },
];

export async function createRoute(
  ctx: CheckContext,
  label: string,
  waypoints: readonly Point[] = WAYPOINTS,
): Promise<CreatedItem> {
  return createItem(
    ctx,
    '/routes',
    {
      wfstatus: WORKFLOW_STATUS.approved,
      routeInfo: {
        routeType: 'walking',
        distanceInKilometers: 2.4,
        durationInMinutes: 35,
        difficulty: 'easy',
        primarySurface: 'paved',
        routeCoordinates: waypoints.map((p) => ({ lat: p.lat, lng: p.lon })),
        pois: POINTS_OF_INTEREST.map((p) => ({
          coordinate: { lat: p.lat, lng: p.lon },
          trcItemDetails: [{ lang: 'nl', title: p.name }],
          locationItem: { trcid: p.trcid },
        })),
      },
    },
    { label },
  );
}

export function samePoint(a: Point, b: Point): boolean {
  return Math.abs(a.lon - b.lon) < 1e-6 && Math.abs(a.lat - b.lat) < 1e-6;
}
