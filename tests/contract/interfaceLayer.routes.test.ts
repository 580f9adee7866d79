// The interface layer (generated/openapi.interface.json) for routes, venues and event groups:
// where the interface names routeInfo's contents, venue rooms and item links but no fields, a
// vendor conforms with our old shape and with the operator's model alike, while the full layer
// holds our decisions (DEC-ITEM-013, DEC-ITEM-016, DEC-ITEM-017, DEC-ITEM-026, DEC-ITEM-151).

import { describe, expect, it } from 'vitest';
import { createValidatorFactory, loadSpec, SPEC_FILES } from '../../spec/index.ts';

const layers = {
  full: createValidatorFactory(loadSpec(SPEC_FILES.json).document),
  interface: createValidatorFactory(loadSpec(SPEC_FILES.interface).document),
};
const valid = (layer: keyof typeof layers, schema: string, value: unknown) =>
  layers[layer](`/components/schemas/${schema}`)(value);

const item = (entitytype: string, fields: Record<string, unknown>) => ({
  id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  trcid: `trc-${entitytype.toLowerCase()}`,
  entitytype,
  creationdate: '2026-11-18T13:47:20.661Z',
  ...fields,
});

/** This description's shapes before issue 27. */
const OLD = {
  route: item('ROUTE', {
    routeInfo: {
      routeType: 'cycling',
      distance: 42.5,
      duration: 180,
      difficulty: 'easy',
      surfaceType: 'unpaved',
      waypoints: [
        { xcoordinate: '5.118000', ycoordinate: '52.099000' },
        { xcoordinate: '5.096500', ycoordinate: '52.112600' },
      ],
      pointsOfInterest: [{ name: 'Slot Zuylen', xcoordinate: '5.054600', ycoordinate: '52.129600', trcid: 'trc-z' }],
    },
  }),
  venue: item('VENUE', {
    venueCapacity: { totalCapacity: 10000, minGroupSize: 10, maxGroupSize: 4000, meetingRooms: 28, squareMetres: 1e5 },
    trcitemRelation: {
      links: [{ linkType: 'related', trcid: 'trc-x' }],
      subItemGroups: [{ name: 'Ronde Zaal', surface: 540, capacities: { theater: 400, seatedDinner: 240 } }],
    },
  }),
  eventGroup: item('EVENTGROUP', { trcitemRelation: { links: [{ linkType: 'child', trcid: 'trc-e' }] } }),
};

/** The operator's model's shapes (ndtrc_model RouteInfo, SubItemGroup, TRCItemGroup). */
const MODEL = {
  route: item('ROUTE', {
    routeInfo: {
      type: 'route_maker',
      routeType: 'driving_traffic',
      url: 'https://routes.example.com/vecht',
      distanceInKilometers: 42.5,
      durationInMinutes: 180,
      start: { city: 'Utrecht' },
      pois: [{ coordinate: { lat: 52.1296, lng: 5.0546 }, category: 'castle', label: 'Zuylen' }],
      routeCoordinates: [
        { lat: 52.099, lng: 5.118, label: '01' },
        { lat: 52.1126, lng: 5.0965, altitude: 1.5 },
      ],
      calculatedCoordinates: [],
      waterPoints: [],
      difficulty: 'challenging',
      primarySurface: 'gravel',
    },
  }),
  venue: item('VENUE', {
    trcItemCategories: { categories: [{ catid: 'p-1501', value: '10000' }] },
    trcitemRelation: {
      subItemGroups: [
        {
          trcid: 'trc-zaal',
          type: { catid: '2.8.1' },
          categories: [{ catid: 'p-1601', value: '400' }],
          subItemTranslations: [{ lang: 'nl', title: 'Ronde Zaal' }],
          media: [],
        },
      ],
    },
  }),
  eventGroup: item('EVENTGROUP', { eventLinks: [{ eventId: 'trc-e' }] }),
};

/** A vendor's own shapes where the text names nothing: any object, any links value. */
const OTHER = {
  route: item('ROUTE', { routeInfo: { routeType: 'horse', pois: 'none', path: 'encoded-polyline' } }),
  venue: item('VENUE', { trcitemRelation: { links: 'none', subItemGroups: [{ room: 'A', categories: 'none' }] } }),
  location: item('LOCATIE', { trcitemRelation: { links: { alias: 'trc-y' } } }),
};

const SCHEMAS = { route: 'Route', venue: 'Venue', eventGroup: 'EventGroup', location: 'Location' } as const;

describe('the interface layer for routes, venues and event groups', () => {
  it("when an item has this description's old route, venue or link shape, then the interface layer accepts it", () => {
    for (const [kind, value] of Object.entries(OLD) as Array<[keyof typeof OLD, unknown]>) {
      expect(valid('interface', SCHEMAS[kind], value), kind).toBe(true);
    }
  });

  it("when an item has the operator's model's shapes, then both layers accept it", () => {
    for (const [kind, value] of Object.entries(MODEL) as Array<[keyof typeof MODEL, unknown]>) {
      expect(valid('interface', SCHEMAS[kind], value), kind).toBe(true);
      expect(valid('full', SCHEMAS[kind], value), kind).toBe(true);
    }
  });

  it('when a vendor has shapes of its own where the text names no field, then the interface layer accepts them; the right kinds stay required', () => {
    for (const [kind, value] of Object.entries(OTHER) as Array<[keyof typeof OTHER, unknown]>) {
      expect(valid('interface', SCHEMAS[kind], value), kind).toBe(true);
      expect(valid('full', SCHEMAS[kind], value), kind).toBe(false);
    }
    // The text says routeInfo and trcitemRelation are objects, and rooms are subItemGroups in it.
    expect(valid('interface', 'Route', { ...OTHER.route, routeInfo: ['not', 'an', 'object'] })).toBe(false);
    expect(valid('interface', 'Venue', { ...OTHER.venue, trcitemRelation: { subItemGroups: 'rooms' } })).toBe(false);
  });

  it('when a route download is any GeoJSON object, then the interface layer accepts it; ours must be a FeatureCollection with the route first', () => {
    const feature = { type: 'Feature', geometry: { type: 'LineString', coordinates: [[5.1, 52.1]] }, properties: {} };
    expect(valid('interface', 'GeoJsonFeatureCollection', feature)).toBe(true);
    expect(valid('interface', 'GeoJsonFeatureCollection', { type: 'FeatureCollection', features: [feature] })).toBe(
      true,
    );
    expect(valid('full', 'GeoJsonFeatureCollection', { type: 'FeatureCollection', features: [feature] })).toBe(false);
    expect(valid('interface', 'GeoJsonFeatureCollection', { type: 'Topology' })).toBe(false);
  });

  it('when the layer is generated, then each relaxation names its decision', () => {
    const schemas = loadSpec(SPEC_FILES.interface).document.components.schemas as Record<
      string,
      { 'x-relaxed'?: string[] }
    >;
    expect(schemas.RouteInfo?.['x-relaxed']).toEqual(['DEC-ITEM-016']);
    expect(schemas.SubItemGroup?.['x-relaxed']).toEqual(['DEC-ITEM-151']);
    expect(schemas.TrcItemRelation?.['x-relaxed']).toEqual(['DEC-ITEM-013']);
    expect(schemas.LocationTrcItemRelation?.['x-relaxed']).toEqual(['DEC-ITEM-013']);
    expect(schemas.GeoJsonFeatureCollection?.['x-relaxed']).toEqual(['DEC-ITEM-017', 'DEC-ITEM-026']);
  });

  it('when the layer is generated, then routeInfo declares only the waypoints, in any shape: every other field of ours stays open', () => {
    const schemas = loadSpec(SPEC_FILES.interface).document.components.schemas as Record<
      string,
      { properties?: Record<string, unknown> }
    >;
    const full = loadSpec(SPEC_FILES.json).document.components.schemas as Record<
      string,
      { properties?: Record<string, unknown> }
    >;
    expect(Object.keys(full.RouteInfo?.properties ?? {})).toContain('routeCoordinates');
    expect(schemas.RouteInfo?.properties).toEqual({ routeCoordinates: {} });
  });
});
