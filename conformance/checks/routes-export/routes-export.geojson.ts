import { parseJson } from '../../../spec/json.ts';
import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { assertStatus } from '../../support/assert.ts';
import { createRoute, POINTS_OF_INTEREST, samePoint, WAYPOINTS } from '../../support/routes.ts';

interface Feature {
  type?: unknown;
  geometry?: { type?: unknown; coordinates?: unknown } | null;
  properties?: Record<string, unknown> | null;
}

const asPoints = (coords: unknown) =>
  Array.isArray(coords)
    ? coords.map((c) => (Array.isArray(c) ? { lon: Number(c[0]), lat: Number(c[1]) } : { lon: NaN, lat: NaN }))
    : [];

const ACCEPT = { accept: 'application/geo+json, application/json' };

export default defineCheck({
  id: 'routes-export.geojson',
  title:
    "GET /routes/{id}/geojson answers GeoJSON whose line is the route's waypoints ([longitude, latitude]); points of interest as points; a route of one waypoint has no line",
  requirements: ['ROUTE-001', 'DEC-ITEM-017', 'DEC-ITEM-026'],
  tags: ['routes'],
  needs: ['write'],
  writes: 'two routes (soft-deleted)',
  run: async (ctx) => {
    const route = await createRoute(ctx, 'route-geojson');
    const res = await ctx.http.get(`${route.path}/geojson`, { token: route.token, headers: ACCEPT, validate: 'defer' });
    assertStatus(res, 200, { requirements: ['ROUTE-001'] });
    let doc: { type?: unknown; features?: Feature[] } & Feature;
    try {
      doc = parseJson(res.text) as typeof doc;
    } catch {
      throw new CheckFailure({
        message: 'the GeoJSON download is not JSON',
        received: res.text.slice(0, 200),
        expected: 'a GeoJSON document',
        requirements: ['ROUTE-001'],
        exchanges: [res.exchange],
      });
    }
    const features: Feature[] =
      doc.type === 'FeatureCollection' && Array.isArray(doc.features)
        ? doc.features
        : doc.type === 'Feature'
          ? [doc]
          : [];
    if (features.length === 0) {
      throw new CheckFailure({
        message: 'the GeoJSON download is not a Feature or FeatureCollection',
        received: doc.type,
        expected: 'FeatureCollection',
        pointer: '/type',
        requirements: ['ROUTE-001'],
        exchanges: [res.exchange],
      });
    }
    const line = features.find((f) => f.geometry?.type === 'LineString');
    const points = asPoints(line?.geometry?.coordinates);
    if (!line || points.length !== WAYPOINTS.length || !points.every((p, i) => samePoint(p, WAYPOINTS[i]!))) {
      const swapped =
        points.length === WAYPOINTS.length &&
        points.every((p, i) => samePoint({ lon: p.lat, lat: p.lon }, WAYPOINTS[i]!));
      throw new CheckFailure({
        message: `the GeoJSON has no LineString of the route's ${WAYPOINTS.length} waypoints${swapped ? ' (its positions are [latitude, longitude]; GeoJSON is [longitude, latitude])' : ''}`,
        received: line?.geometry?.coordinates ?? features.map((f) => f.geometry?.type),
        expected: WAYPOINTS.map((p) => [p.lon, p.lat]),
        requirements: ['ROUTE-001'],
        exchanges: [res.exchange],
      });
    }
    ctx.verified(['ROUTE-001']);

    // DEC-ITEM-017: media type, properties, one Point per point of interest.
    if (!/^application\/geo\+json\b/i.test(res.headers['content-type'] ?? '')) {
      throw new CheckFailure({
        message: `the GeoJSON download is ${res.headers['content-type']}`,
        received: res.headers['content-type'],
        expected: 'application/geo+json',
        pointer: 'header/Content-Type',
        requirements: ['DEC-ITEM-017'],
        exchanges: [res.exchange],
      });
    }
    res.assertConforms(['DEC-ITEM-017']);
    if (line.properties?.trcid !== route.trcid || line.properties?.routeType !== 'walking') {
      throw new CheckFailure({
        message: "the route feature's properties do not name the route",
        received: line.properties,
        expected: { trcid: route.trcid, routeType: 'walking' },
        requirements: ['DEC-ITEM-017'],
        exchanges: [res.exchange],
      });
    }
    for (const poi of POINTS_OF_INTEREST) {
      const found = features.find(
        (f) => f.geometry?.type === 'Point' && samePoint(asPoints([f.geometry.coordinates])[0]!, poi),
      );
      if (!found || found.properties?.title !== poi.name || found.properties?.trcid !== poi.trcid) {
        throw new CheckFailure({
          message: `no Point feature {title, trcid} for the point of interest ${poi.name}`,
          received: found?.properties ?? '(none at its position)',
          expected: { title: poi.name, trcid: poi.trcid },
          requirements: ['DEC-ITEM-017', 'DEC-ITEM-026'],
          exchanges: [res.exchange],
        });
      }
    }
    // DEC-ITEM-026: fewer than two waypoints, no line.
    const dot = await createRoute(ctx, 'route-one-point', WAYPOINTS.slice(0, 1));
    const single = await ctx.http.get(`${dot.path}/geojson`, { token: dot.token, headers: ACCEPT, validate: 'defer' });
    assertStatus(single, 200, { requirements: ['DEC-ITEM-026'] });
    single.assertConforms(['DEC-ITEM-026']);
    const routeFeature = ((single.body as { features?: Feature[] } | undefined)?.features ?? []).find(
      (f) => f.properties?.trcid === dot.trcid,
    );
    if (!routeFeature || routeFeature.geometry !== null) {
      throw new CheckFailure({
        message: 'the route feature of a route with one waypoint does not have null geometry',
        received: routeFeature?.geometry,
        expected: null,
        requirements: ['DEC-ITEM-026'],
        exchanges: [single.exchange],
      });
    }
  },
});
