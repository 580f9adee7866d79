import { describe, expect, it } from 'vitest';
import { routeToGeoJson } from './geojson.ts';
import type { RouteData } from './routeData.ts';

const base: RouteData = {
  id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  trcid: 'trc-r',
  lastupdated: new Date(0),
  waypoints: [],
  pointsOfInterest: [],
};

describe('routeToGeoJson', () => {
  it('when a route has waypoints, then the LineString holds [longitude, latitude] numbers in order [DEC-ITEM-012] [DEC-ITEM-026]', () => {
    const collection = routeToGeoJson({
      ...base,
      title: 'Vecht',
      routeType: 'cycling',
      distance: 42.5,
      waypoints: [
        { lon: '5.118000', lat: '52.099000' },
        { lon: '-0.5', lat: '-33.25' },
      ],
    });
    expect(collection.features[0]).toEqual({
      type: 'Feature',
      geometry: {
        type: 'LineString',
        coordinates: [
          [5.118, 52.099],
          [-0.5, -33.25],
        ],
      },
      properties: { id: base.id, trcid: 'trc-r', title: 'Vecht', routeType: 'cycling', distance: 42.5 },
    });
  });

  it('when a route has fewer than two waypoints, then its geometry is null [DEC-ITEM-026]', () => {
    expect(routeToGeoJson({ ...base, waypoints: [{ lon: '5', lat: '52' }] }).features[0]!.geometry).toBeNull();
    expect(routeToGeoJson(base).features).toEqual([
      { type: 'Feature', geometry: null, properties: { id: base.id, trcid: 'trc-r' } },
    ]);
  });

  it('when a route has points of interest, then each is a Point feature with name and trcid when set [DEC-ITEM-017]', () => {
    const collection = routeToGeoJson({
      ...base,
      pointsOfInterest: [
        { lon: '5.0546', lat: '52.1296', name: 'Slot Zuylen', trcid: 'trc-slot' },
        { lon: '5', lat: '52' },
      ],
    });
    expect(collection.features.slice(1)).toEqual([
      {
        type: 'Feature',
        geometry: { type: 'Point', coordinates: [5.0546, 52.1296] },
        properties: { name: 'Slot Zuylen', trcid: 'trc-slot' },
      },
      { type: 'Feature', geometry: { type: 'Point', coordinates: [5, 52] }, properties: {} },
    ]);
  });
});
