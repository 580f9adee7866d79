import { describe, expect, it } from 'vitest';
import { routeToGeoJson } from './geojson.ts';
import type { RouteData } from './routeData.ts';

const base: RouteData = {
  id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  trcid: 'trc-r',
  info: {},
  lastupdated: new Date(0),
  path: [],
  pois: [],
  waterPoints: [],
};

describe('routeToGeoJson', () => {
  it('when a route has a path, then the LineString holds [longitude, latitude(, altitude)] numbers in order and the routeInfo properties [DEC-ITEM-017] [DEC-ITEM-026]', () => {
    const collection = routeToGeoJson({
      ...base,
      title: 'Vecht',
      info: { routeType: 'cycling', distanceInKilometers: 42.5, primarySurface: 'paved' },
      path: [
        { lat: 52.099, lng: 5.118 },
        { lat: -33.25, lng: -0.5, altitude: 12.5 },
      ],
    });
    expect(collection.features).toEqual([
      {
        type: 'Feature',
        geometry: {
          type: 'LineString',
          coordinates: [
            [5.118, 52.099],
            [-0.5, -33.25, 12.5],
          ],
        },
        properties: {
          id: base.id,
          trcid: 'trc-r',
          title: 'Vecht',
          routeType: 'cycling',
          distanceInKilometers: 42.5,
          primarySurface: 'paved',
        },
      },
    ]);
  });

  it('when a route has fewer than two points, then its geometry is null [DEC-ITEM-026]', () => {
    expect(routeToGeoJson({ ...base, path: [{ lat: 52, lng: 5 }] }).features[0]!.geometry).toBeNull();
    expect(routeToGeoJson(base).features).toEqual([
      { type: 'Feature', geometry: null, properties: { id: base.id, trcid: 'trc-r' } },
    ]);
  });

  it('when a route has points of interest, then each is a Point feature with the properties it has [DEC-ITEM-017] [DEC-ITEM-026]', () => {
    const collection = routeToGeoJson({
      ...base,
      pois: [
        {
          point: { lat: 52.1296, lng: 5.0546 },
          title: 'Slot Zuylen',
          description: 'not a property',
          label: 'Zuylen',
          category: 'castle',
          trcid: 'trc-slot',
          distanceInKilometersFromStart: 7.5,
        },
        { point: { lat: 52, lng: 5, altitude: 1 } },
      ],
    });
    expect(collection.features.slice(1)).toEqual([
      {
        type: 'Feature',
        geometry: { type: 'Point', coordinates: [5.0546, 52.1296] },
        properties: {
          title: 'Slot Zuylen',
          label: 'Zuylen',
          category: 'castle',
          trcid: 'trc-slot',
          distanceInKilometersFromStart: 7.5,
        },
      },
      { type: 'Feature', geometry: { type: 'Point', coordinates: [5, 52, 1] }, properties: {} },
    ]);
  });

  it('when a route has two water points or more, then they are a last LineString feature marked waterPoints; one is not [DEC-ITEM-026]', () => {
    const water = [
      { lat: 52.3, lng: 5.0 },
      { lat: 52.31, lng: 5.01 },
    ];
    const collection = routeToGeoJson({ ...base, pois: [{ point: { lat: 52, lng: 5 } }], waterPoints: water });
    expect(collection.features.map((f) => f.geometry?.type ?? null)).toEqual([null, 'Point', 'LineString']);
    expect(collection.features[2]).toEqual({
      type: 'Feature',
      geometry: {
        type: 'LineString',
        coordinates: [
          [5.0, 52.3],
          [5.01, 52.31],
        ],
      },
      properties: { waterPoints: true },
    });
    expect(routeToGeoJson({ ...base, waterPoints: water.slice(1) }).features).toHaveLength(1);
  });
});
