import type { RouteData, RoutePoint, RoutePoi } from './routeData.ts';

// A route as a GeoJSON FeatureCollection (RFC 7946; DEC-ITEM-017, DEC-ITEM-026): first the route
// as a LineString feature, then one Point feature per point of interest, in their order, then the
// water crossings as a LineString feature when there are two or more.

type Position = [number, number] | [number, number, number];

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

const POI_PROPERTIES = [
  'title',
  'label',
  'icon',
  'category',
  'trcid',
  'distanceInKilometersFromStart',
  'durationInMinutesFromStart',
] as const satisfies ReadonlyArray<keyof RoutePoi>;

export function routeToGeoJson(route: RouteData): GeoJsonFeatureCollection {
  const line = route.path.map(position);
  const properties: Record<string, unknown> = { id: route.id, trcid: route.trcid };
  if (route.title !== undefined) properties.title = route.title;
  Object.assign(properties, route.info);
  const routeFeature: GeoJsonFeature = {
    type: 'Feature',
    // A LineString needs two positions; with fewer the route has no geometry (DEC-ITEM-026).
    geometry: line.length >= 2 ? { type: 'LineString', coordinates: line } : null,
    properties,
  };
  const pois = route.pois.map((poi): GeoJsonFeature => ({
    type: 'Feature',
    geometry: { type: 'Point', coordinates: position(poi.point) },
    properties: Object.fromEntries(POI_PROPERTIES.flatMap((key) => (poi[key] === undefined ? [] : [[key, poi[key]]]))),
  }));
  const features = [routeFeature, ...pois];
  if (route.waterPoints.length >= 2) {
    features.push({
      type: 'Feature',
      geometry: { type: 'LineString', coordinates: route.waterPoints.map(position) },
      properties: { waterPoints: true },
    });
  }
  return { type: 'FeatureCollection', features };
}

/** RFC 7946 order: longitude, latitude, then the altitude where the point has one. */
function position(point: RoutePoint): Position {
  return point.altitude === undefined ? [point.lng, point.lat] : [point.lng, point.lat, point.altitude];
}
