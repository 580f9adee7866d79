import type { RouteData } from './routeData.ts';

// A route as a GeoJSON FeatureCollection (RFC 7946; DEC-ITEM-017, DEC-ITEM-026): first the route
// as a LineString feature, then one Point feature per point of interest, in their order.

type Position = [number, number];

export interface GeoJsonFeature {
  type: 'Feature';
  geometry: { type: 'LineString'; coordinates: Position[] } | { type: 'Point'; coordinates: Position } | null;
  properties: Record<string, unknown>;
}

export interface GeoJsonFeatureCollection {
  type: 'FeatureCollection';
  features: GeoJsonFeature[];
}

export const GEOJSON_MEDIA_TYPE = 'application/geo+json';

export function routeToGeoJson(route: RouteData): GeoJsonFeatureCollection {
  const line = route.waypoints.map(position);
  const properties: Record<string, unknown> = { id: route.id, trcid: route.trcid };
  for (const key of ['title', 'routeType', 'distance', 'duration', 'difficulty'] as const) {
    if (route[key] !== undefined) properties[key] = route[key];
  }
  const routeFeature: GeoJsonFeature = {
    type: 'Feature',
    // A LineString needs two positions; with fewer the route has no geometry (DEC-ITEM-026).
    geometry: line.length >= 2 ? { type: 'LineString', coordinates: line } : null,
    properties,
  };
  const pois = route.pointsOfInterest.map((poi): GeoJsonFeature => ({
    type: 'Feature',
    geometry: { type: 'Point', coordinates: position(poi) },
    properties: {
      ...(poi.name === undefined ? {} : { name: poi.name }),
      ...(poi.trcid === undefined ? {} : { trcid: poi.trcid }),
    },
  }));
  return { type: 'FeatureCollection', features: [routeFeature, ...pois] };
}

/** RFC 7946 order: longitude (xcoordinate), then latitude (ycoordinate), as numbers (DEC-ITEM-012). */
function position(point: { lat: string; lon: string }): Position {
  return [Number(point.lon), Number(point.lat)];
}
