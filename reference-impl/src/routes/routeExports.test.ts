import { randomUUID } from 'node:crypto';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, eventBody, newTestAccount, type TestAccount } from '../../test/support/items/itemsHarness.ts';
import { specExample, specSchema } from '../../test/support/items/responseSchemas.ts';
import { describeEachEngine } from '../../test/support/storage/testDb.ts';
import { startTestApp, type TestApp } from '../../test/support/testApp.ts';

// GET /routes/{id}/geojson and /gpx: created through the API, downloaded, parsed back.

const geoJsonSchema = () => specSchema('/components/schemas/GeoJsonFeatureCollection');

const gpxParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  isArray: (name) => ['wpt', 'trk', 'trkseg', 'trkpt'].includes(name),
});

interface LatLng {
  lat: number;
  lng: number;
}
interface Poi {
  coordinate: LatLng;
  label?: string;
  category?: string;
  distanceInKilometersFromStart?: number;
  durationInMinutesFromStart?: number;
  trcItemDetails: Array<{ lang: string; title: string }>;
  locationItem?: { trcid: string };
}
interface RouteDraft {
  trcid?: string;
  userorganisation?: string;
  wfstatus?: string;
  trcItemDetails: Array<{ lang: string; title: string; shortdescription?: string }>;
  routeInfo: {
    routeCoordinates: LatLng[];
    calculatedCoordinates?: LatLng[];
    waterPoints?: LatLng[];
    pois: Poi[];
    type?: string;
    routeType?: string;
    url?: string;
    distanceInKilometers?: number;
    durationInMinutes?: number;
    difficulty?: string;
    primarySurface?: string;
  };
}

describeEachEngine('route downloads', (ctx) => {
  let app: TestApp;
  let account: TestAccount;
  let other: TestAccount;
  const validateGeoJson = geoJsonSchema();
  beforeAll(async () => {
    app = await startTestApp(ctx.db); // rate limiting on: the downloads must not be limited
    account = await newTestAccount(ctx.db);
    other = await newTestAccount(ctx.db);
  });
  afterAll(() => app.close());

  const full = () => client(app.baseUrl, account.full);
  function vecht(overrides: Partial<RouteDraft> = {}): RouteDraft {
    const draft = specExample<RouteDraft>('RouteVechtDraft');
    return { ...draft, trcid: `trc-${randomUUID()}`, userorganisation: account.organisations[0], ...overrides };
  }
  async function createRoute(body: RouteDraft): Promise<string> {
    const created = await full().post('/routes', body);
    expect(created.status).toBe(201);
    return created.body.id as string;
  }
  const download = (path: string, token = account.full) =>
    fetch(`${app.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });

  describe('GET /routes/{id}/geojson', () => {
    it('when a route is downloaded, then a FeatureCollection: the LineString of its plotted points as [lng, lat] and its POIs as Points [ROUTE-001] [DEC-ITEM-017] [DEC-ITEM-026]', async () => {
      const body = vecht();
      const id = await createRoute(body);
      const response = await download(`/routes/${id}/geojson`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/geo\+json/);
      const collection = JSON.parse(await response.text());
      expect(validateGeoJson(collection), JSON.stringify(validateGeoJson.errors)).toBe(true);
      const [route, ...pois] = collection.features;
      expect(route.geometry.type).toBe('LineString');
      expect(route.geometry.coordinates).toEqual(body.routeInfo.routeCoordinates.map((w) => [w.lng, w.lat]));
      expect(route.geometry.coordinates[0]).toEqual([5.118, 52.099]); // longitude first
      const { trcid } = body;
      expect(route.properties).toEqual({
        id,
        trcid,
        title: 'Fietsroute langs de Vecht',
        type: 'route_maker',
        routeType: 'cycling',
        url: 'https://routes.example.com/fietsroute-langs-de-vecht',
        distanceInKilometers: 42.5,
        durationInMinutes: 180,
        difficulty: 'easy',
        primarySurface: 'paved',
      });
      expect(pois).toEqual(
        body.routeInfo.pois.map((p) => ({
          type: 'Feature',
          geometry: { type: 'Point', coordinates: [p.coordinate.lng, p.coordinate.lat] },
          properties: {
            title: p.trcItemDetails.find((d) => d.lang === 'nl')!.title,
            label: p.label,
            category: p.category,
            ...(p.locationItem === undefined ? {} : { trcid: p.locationItem.trcid }),
            distanceInKilometersFromStart: p.distanceInKilometersFromStart,
            durationInMinutesFromStart: p.durationInMinutesFromStart,
          },
        })),
      );
    });

    it('when a route has a calculated path and water points, then the line follows the calculated path and the water crossings come last [DEC-ITEM-026]', async () => {
      const calculated = [
        { lat: 52.099, lng: 5.118, altitude: 1.5 },
        { lat: 52.105, lng: 5.11 },
        { lat: 52.1126, lng: 5.0965 },
      ];
      const water = [
        { lat: 52.27, lng: 5.03 },
        { lat: 52.2705, lng: 5.0312 },
      ];
      const draft = vecht();
      const id = await createRoute(
        vecht({ routeInfo: { ...draft.routeInfo, calculatedCoordinates: calculated, waterPoints: water } }),
      );
      const collection = JSON.parse(await (await download(`/routes/${id}/geojson`)).text());
      expect(validateGeoJson(collection), JSON.stringify(validateGeoJson.errors)).toBe(true);
      expect(collection.features[0].geometry.coordinates).toEqual([
        [5.118, 52.099, 1.5],
        [5.11, 52.105],
        [5.0965, 52.1126],
      ]);
      expect(collection.features.at(-1)).toEqual({
        type: 'Feature',
        geometry: { type: 'LineString', coordinates: water.map((w) => [w.lng, w.lat]) },
        properties: { waterPoints: true },
      });
      const { gpx } = gpxParser.parse(await (await download(`/routes/${id}/gpx`)).text());
      expect(gpx.trk.map((t: { type?: string }) => t.type)).toEqual(['cycling', 'waterPoints']);
      expect(gpx.trk[0].trkseg[0].trkpt[0]).toEqual({ '@_lat': '52.099', '@_lon': '5.118', ele: '1.5' });
    });

    it('when a route has one plotted point, then its feature has null geometry [DEC-ITEM-026]', async () => {
      const id = await createRoute(vecht({ routeInfo: { routeCoordinates: [{ lat: 52.1, lng: 5.1 }], pois: [] } }));
      const collection = (await (await download(`/routes/${id}/geojson`)).json()) as { features: unknown[] };
      expect(validateGeoJson(collection)).toBe(true);
      expect(collection.features).toEqual([
        { type: 'Feature', geometry: null, properties: expect.objectContaining({ id }) },
      ]);
    });

    it('when downloads are asked many times, then they are not rate limited [DEC-ITEM-027]', async () => {
      const id = await createRoute(vecht());
      const answers = await Promise.all(Array.from({ length: 50 }, () => download(`/routes/${id}/geojson`)));
      expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
      expect(answers[0]!.headers.get('x-ratelimit-limit')).toBeNull();
      await Promise.all(answers.map((a) => a.body?.cancel()));
    });
  });

  describe('GET /routes/{id}/gpx', () => {
    it('when a route is downloaded, then valid GPX 1.1 with metadata, one wpt per POI and one trkpt per plotted point [ROUTE-002] [DEC-ITEM-017]', async () => {
      const body = vecht();
      const id = await createRoute(body);
      const response = await download(`/routes/${id}/gpx`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/gpx\+xml/);
      const xml = await response.text();
      expect(XMLValidator.validate(xml)).toBe(true);
      const { gpx } = gpxParser.parse(xml);
      expect(gpx).toMatchObject({
        '@_version': '1.1',
        '@_xmlns': 'http://www.topografix.com/GPX/1/1',
        '@_creator': 'Content Service',
      });
      expect(gpx.metadata).toMatchObject({
        name: 'Fietsroute langs de Vecht',
        desc: body.trcItemDetails[0]!.shortdescription,
        link: { '@_href': `${app.config.publicBaseUrl}/routes/${id}`, text: body.trcid },
      });
      expect(gpx.metadata.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(gpx.wpt.map((w: Record<string, string>) => [w['@_lat'], w['@_lon'], w.name, w.type])).toEqual(
        body.routeInfo.pois.map((p) => [
          String(p.coordinate.lat),
          String(p.coordinate.lng),
          p.trcItemDetails[0]!.title,
          p.category,
        ]),
      );
      expect(gpx.trk).toHaveLength(1);
      expect(gpx.trk[0].trkseg[0].trkpt.map((p: Record<string, string>) => [p['@_lat'], p['@_lon']])).toEqual(
        body.routeInfo.routeCoordinates.map((w) => [String(w.lat), String(w.lng)]),
      );
    });

    it('when the title holds &, <, quotes and emoji, then the GPX escapes them and parses back to the same text', async () => {
      const title = 'Tom & Jerry\'s <fiets>route "langs" de Vecht 🚲';
      const id = await createRoute(
        vecht({ trcItemDetails: [{ lang: 'nl', title, shortdescription: 'a < b && c > d' }] }),
      );
      const xml = await (await download(`/routes/${id}/gpx`)).text();
      expect(xml).toContain('Tom &amp; Jerry&apos;s &lt;fiets&gt;route &quot;langs&quot; de Vecht 🚲');
      expect(XMLValidator.validate(xml)).toBe(true);
      const { gpx } = gpxParser.parse(xml);
      expect(gpx.metadata.name).toBe(title);
      expect(gpx.metadata.desc).toBe('a < b && c > d');
      expect(gpx.trk[0].name).toBe(title);
    });
  });

  describe('scope', () => {
    it("when the route is another account's, soft-deleted, not visible to the token, unknown or not a route, then 404 like a detail read (a malformed id 400) [DEC-ITEM-004]", async () => {
      const id = await createRoute(vecht());
      for (const format of ['geojson', 'gpx']) {
        expect((await download(`/routes/${id}/${format}`, other.full)).status).toBe(404);
        expect((await download(`/routes/${id}/${format}`, account.live)).status).toBe(404); // live only: readyforvalidation is hidden
        expect((await download(`/routes/${randomUUID()}/${format}`)).status).toBe(404);
        expect((await download(`/routes/not-a-uuid/${format}`)).status).toBe(400); // ids are UUIDs (ItemId)
      }
      const event = await full().post('/events', eventBody());
      expect((await download(`/routes/${event.body.id}/geojson`)).status).toBe(404);

      expect((await full().delete(`/routes/${id}`)).status).toBe(204);
      const gone = await download(`/routes/${id}/gpx`);
      expect(gone.status).toBe(404);
      expect(gone.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await gone.json()).toMatchObject({ status: 404, message: `No route with id ${id}` });
    });

    it('when the route is approved, then a live token may download it', async () => {
      const id = await createRoute(vecht({ wfstatus: 'approved' }));
      expect((await download(`/routes/${id}/geojson`, account.live)).status).toBe(200);
    });

    it('when no token is sent, then 401', async () => {
      const id = await createRoute(vecht());
      expect((await fetch(`${app.baseUrl}/routes/${id}/gpx`)).status).toBe(401);
    });
  });
});
