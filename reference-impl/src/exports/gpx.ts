import { XMLBuilder } from 'fast-xml-parser';
import { formatTimestamp } from '../domain/timestamps.ts';
import type { RouteData, RoutePoint } from './routeData.ts';

// A route as GPX 1.1 (DEC-ITEM-017, DEC-ITEM-026): metadata (name, desc, link, time), one wpt
// per point of interest, then one trk with one trkseg of the route's path, and a second trk of
// its water crossings when it has any, in the order the GPX schema requires (also inside wpt:
// ele, name, desc, type). Built with an XML library, which escapes &, <, >, and quotes;
// characters XML 1.0 cannot hold at all (most control characters, lone surrogates) are removed
// first.

export const GPX_MEDIA_TYPE = 'application/gpx+xml';
export const GPX_NAMESPACE = 'http://www.topografix.com/GPX/1/1';
const GPX_CREATOR = 'Content Service';
/** The `type` of the track of water crossings, which tells it from the route's. */
export const GPX_WATER_TRACK_TYPE = 'waterPoints';

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  format: true,
  suppressEmptyNode: true,
});

export function routeToGpx(route: RouteData, options: { resourceUrl: string }): string {
  const metadata: Record<string, unknown> = {};
  if (route.title !== undefined) metadata.name = xmlText(route.title);
  if (route.description !== undefined) metadata.desc = xmlText(route.description);
  metadata.link = { '@_href': options.resourceUrl, text: xmlText(route.trcid) };
  metadata.time = formatTimestamp(route.lastupdated);

  const track: Record<string, unknown> = {};
  if (route.title !== undefined) track.name = xmlText(route.title);
  if (typeof route.info.routeType === 'string') track.type = xmlText(route.info.routeType);
  if (route.path.length > 0) track.trkseg = { trkpt: route.path.map(gpxPoint) };
  const tracks = [track];
  if (route.waterPoints.length > 0)
    tracks.push({ type: GPX_WATER_TRACK_TYPE, trkseg: { trkpt: route.waterPoints.map(gpxPoint) } });

  const gpx: Record<string, unknown> = {
    '@_version': '1.1',
    '@_creator': GPX_CREATOR,
    '@_xmlns': GPX_NAMESPACE,
    metadata,
  };
  if (route.pois.length > 0) {
    gpx.wpt = route.pois.map((poi) => {
      const name = poi.title ?? poi.label;
      return {
        ...gpxPoint(poi.point),
        ...(name === undefined ? {} : { name: xmlText(name) }),
        ...(poi.description === undefined ? {} : { desc: xmlText(poi.description) }),
        ...(poi.category === undefined ? {} : { type: xmlText(poi.category) }),
      };
    });
  }
  gpx.trk = tracks;
  return builder.build({ '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' }, gpx }) as string;
}

function gpxPoint(point: RoutePoint): Record<string, unknown> {
  const out: Record<string, unknown> = { '@_lat': String(point.lat), '@_lon': String(point.lng) };
  if (point.altitude !== undefined) out.ele = String(point.altitude);
  return out;
}

// XML 1.0 Char: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF].
const NOT_XML_CHAR =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function xmlText(text: string): string {
  return text.replace(NOT_XML_CHAR, '');
}
