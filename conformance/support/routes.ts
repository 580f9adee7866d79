// A route with waypoints and points of interest (DEC-ITEM-016), for the GeoJSON and GPX checks.

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
        distance: 2.4,
        duration: 35,
        difficulty: 'easy',
        surfaceType: 'paved',
        waypoints: waypoints.map((p) => ({ xcoordinate: String(p.lon), ycoordinate: String(p.lat) })),
        pointsOfInterest: POINTS_OF_INTEREST.map((p) => ({
          name: p.name,
          trcid: p.trcid,
          xcoordinate: String(p.lon),
          ycoordinate: String(p.lat),
        })),
      },
    },
    { label },
  );
}

export function samePoint(a: Point, b: Point): boolean {
  return Math.abs(a.lon - b.lon) < 1e-6 && Math.abs(a.lat - b.lat) < 1e-6;
}
