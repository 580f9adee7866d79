import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { assertStatus } from '../../support/assert.ts';
import { createRoute, POINTS_OF_INTEREST, samePoint, WAYPOINTS } from '../../support/routes.ts';
import type { Point } from '../../support/routes.ts';

type Node = Record<string, unknown>;
const list = (v: unknown): Node[] => (v === undefined ? [] : Array.isArray(v) ? (v as Node[]) : [v as Node]);
const point = (n: Node): Point => ({ lon: Number(n['@_lon']), lat: Number(n['@_lat']) });

export default defineCheck({
  id: 'routes-export.gpx',
  title:
    "GET /routes/{id}/gpx answers well-formed GPX 1.1 whose track (or route) points are the route's waypoints; points of interest as wpt",
  requirements: ['ROUTE-002', 'DEC-ITEM-017'],
  tags: ['routes'],
  needs: ['write'],
  writes: 'one route (soft-deleted)',
  run: async (ctx) => {
    const route = await createRoute(ctx, 'route-gpx');
    const res = await ctx.http.get(`${route.path}/gpx`, {
      token: route.token,
      headers: { accept: 'application/gpx+xml, application/xml' },
      validate: 'defer',
    });
    assertStatus(res, 200, { requirements: ['ROUTE-002'] });
    const valid = XMLValidator.validate(res.text);
    if (valid !== true) {
      throw new CheckFailure({
        message: `the GPX download is not well-formed XML: ${valid.err.msg} (line ${valid.err.line})`,
        received: res.text.slice(0, 200),
        expected: 'well-formed XML',
        requirements: ['ROUTE-002'],
        exchanges: [res.exchange],
      });
    }
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_' }).parse(res.text) as Node;
    const gpx = doc.gpx as Node | undefined;
    if (!gpx || gpx['@_version'] !== '1.1' || gpx['@_xmlns'] !== 'http://www.topografix.com/GPX/1/1') {
      throw new CheckFailure({
        message: 'the download is not GPX 1.1',
        received: gpx ? { version: gpx['@_version'], xmlns: gpx['@_xmlns'] } : Object.keys(doc),
        expected: { version: '1.1', xmlns: 'http://www.topografix.com/GPX/1/1' },
        requirements: ['ROUTE-002'],
        exchanges: [res.exchange],
      });
    }
    const trackPoints = list(gpx.trk).flatMap((t) => list(t.trkseg).flatMap((s) => list(s.trkpt)));
    const routePoints = list(gpx.rte).flatMap((r) => list(r.rtept));
    const path = (trackPoints.length > 0 ? trackPoints : routePoints).map(point);
    if (path.length !== WAYPOINTS.length || !path.every((p, i) => samePoint(p, WAYPOINTS[i]!))) {
      throw new CheckFailure({
        message: `the GPX track is not the route's ${WAYPOINTS.length} waypoints in order`,
        received: path.map((p) => `${p.lat},${p.lon}`),
        expected: WAYPOINTS.map((p) => `${p.lat},${p.lon}`),
        requirements: ['ROUTE-002'],
        exchanges: [res.exchange],
      });
    }
    ctx.verified(['ROUTE-002']);

    // DEC-ITEM-017: the media type, one trk, metadata, a wpt (with its name, escaped) per point of interest.
    if (
      !/^application\/gpx\+xml\b/i.test(res.headers['content-type'] ?? '') ||
      trackPoints.length === 0 ||
      gpx.metadata === undefined
    ) {
      throw new CheckFailure({
        message: 'the GPX download is not application/gpx+xml with metadata and one trk',
        received: {
          'content-type': res.headers['content-type'],
          trk: trackPoints.length > 0,
          metadata: gpx.metadata !== undefined,
        },
        expected: { 'content-type': 'application/gpx+xml', trk: true, metadata: true },
        requirements: ['DEC-ITEM-017'],
        exchanges: [res.exchange],
      });
    }
    res.assertConforms(['DEC-ITEM-017']);
    const wpts = list(gpx.wpt);
    for (const poi of POINTS_OF_INTEREST) {
      const found = wpts.find((w) => samePoint(point(w), poi));
      if (!found || String(found.name) !== poi.name) {
        throw new CheckFailure({
          message: `no wpt named ${poi.name} at the point of interest`,
          received: found ? found.name : '(none at its position)',
          expected: poi.name,
          requirements: ['DEC-ITEM-017'],
          exchanges: [res.exchange],
        });
      }
    }
  },
});
