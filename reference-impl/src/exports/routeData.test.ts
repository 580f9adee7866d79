import { describe, expect, it } from 'vitest';
import type { StoredItem } from '../storage/items/itemRow.ts';
import { routeData } from './routeData.ts';

function stored(doc: Record<string, unknown>, title: string | null = null): StoredItem {
  return {
    id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
    trcid: 'trc-r',
    entitytype: 'ROUTE',
    wfstatus: 'approved',
    userorganisation: 'org',
    creationdate: new Date(0),
    lastupdated: new Date(1000),
    externalId: null,
    title,
    slug: null,
    doc,
  };
}

describe('routeData', () => {
  it('when the calculated path has two points or more, then it is the path; else the plotted coordinates are [DEC-ITEM-026]', () => {
    const plotted = [
      { lat: 52.1, lng: 5.1, label: '01' },
      { lat: 52.2, lng: 5.2 },
    ];
    const calculated = [
      { lat: 52.1, lng: 5.1, altitude: 2 },
      { lat: 52.15, lng: 5.12 },
      { lat: 52.2, lng: 5.2 },
    ];
    expect(
      routeData(stored({ routeInfo: { routeCoordinates: plotted, calculatedCoordinates: calculated } })).path,
    ).toEqual([
      { lat: 52.1, lng: 5.1, altitude: 2 },
      { lat: 52.15, lng: 5.12 },
      { lat: 52.2, lng: 5.2 },
    ]);
    expect(
      routeData(stored({ routeInfo: { routeCoordinates: plotted, calculatedCoordinates: calculated.slice(0, 1) } }))
        .path,
    ).toEqual([
      { lat: 52.1, lng: 5.1 },
      { lat: 52.2, lng: 5.2 },
    ]);
  });

  it('when a point is not a WGS84 pair of numbers, then it is left out', () => {
    const route = routeData(
      stored({
        routeInfo: {
          routeCoordinates: [{ lat: 91, lng: 5 }, { lat: '52', lng: 5 }, { lat: 52, lng: -180 }, null, { lng: 5 }],
          waterPoints: [{ lat: 52.3, lng: 5.3, altitude: 'high' }],
        },
      }),
    );
    expect(route.path).toEqual([{ lat: 52, lng: -180 }]);
    expect(route.waterPoints).toEqual([{ lat: 52.3, lng: 5.3 }]);
  });

  it('when points of interest are read, then those with a coordinate, or else a location with a position [DEC-ITEM-163], come with their texts in the primary language and their location trcid', () => {
    const route = routeData(
      stored({
        translations: { primaryLanguage: 'en' },
        routeInfo: {
          pois: [
            {
              coordinate: { lat: 52.1296, lng: 5.0546 },
              label: 'Zuylen',
              category: 'castle',
              icon: 'chess-rook',
              distanceInKilometersFromStart: 7.5,
              durationInMinutesFromStart: 30,
              trcItemDetails: [
                { lang: 'nl', title: 'Slot Zuylen' },
                { lang: 'en', title: 'Zuylen Castle', shortdescription: 'A castle' },
              ],
              locationItem: { trcid: 'trc-slot-zuylen', text: 'Slot Zuylen' },
            },
            { label: 'nowhere' },
            { coordinate: { lat: 52, lng: 5 }, trcItemDetails: [{ lang: 'nl', title: 'Eerste' }], label: '' },
            {
              label: 'Molen',
              location: { address: { gisCoordinates: [{ xcoordinate: '5.0', ycoordinate: '52.2' }] } },
            },
            {
              label: 'oost',
              location: { address: { gisCoordinates: [{ xcoordinate: 'east', ycoordinate: '52.2' }] } },
            },
          ],
        },
      }),
    );
    expect(route.pois).toEqual([
      {
        point: { lat: 52.1296, lng: 5.0546 },
        title: 'Zuylen Castle',
        description: 'A castle',
        label: 'Zuylen',
        icon: 'chess-rook',
        category: 'castle',
        trcid: 'trc-slot-zuylen',
        distanceInKilometersFromStart: 7.5,
        durationInMinutesFromStart: 30,
      },
      { point: { lat: 52, lng: 5 }, title: 'Eerste' },
      { point: { lat: 52.2, lng: 5 }, label: 'Molen' },
    ]);
  });

  it('when routeInfo has the model fields, then they are taken under their names, and the title and description of the item', () => {
    const route = routeData(
      stored(
        {
          trcItemDetails: [{ lang: 'nl', title: 'Vecht', shortdescription: 'Langs de Vecht' }],
          routeInfo: {
            type: 'route_maker',
            routeType: 'cycling',
            url: 'https://routes.example.com/vecht',
            distanceInKilometers: 42.5,
            durationInMinutes: 180,
            difficulty: 'easy',
            primarySurface: 'paved',
            start: { city: 'Utrecht' },
          },
        },
        'Vecht',
      ),
    );
    expect(route).toMatchObject({
      title: 'Vecht',
      description: 'Langs de Vecht',
      info: {
        type: 'route_maker',
        routeType: 'cycling',
        url: 'https://routes.example.com/vecht',
        distanceInKilometers: 42.5,
        durationInMinutes: 180,
        difficulty: 'easy',
        primarySurface: 'paved',
      },
      path: [],
      pois: [],
      waterPoints: [],
    });
  });
});
