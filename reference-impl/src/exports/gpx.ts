import { XMLBuilder } from 'fast-xml-parser';
import { formatTimestamp } from '../domain/timestamps.ts';
import type { RouteData } from './routeData.ts';

// A route as GPX 1.1 (DEC-ITEM-017): metadata (name, desc, link, time), one wpt per point of
// interest, then one trk with one trkseg of the waypoints, in the order the GPX schema requires.
// Built with an XML library, which escapes &, <, >, and quotes; characters XML 1.0 cannot hold at
// all (most control characters, lone surrogates) are removed first.

export const GPX_MEDIA_TYPE = 'application/gpx+xml';
export const GPX_NAMESPACE = 'http://www.topografix.com/GPX/1/1';
const GPX_CREATOR = 'Content Service';

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
  if (route.routeType !== undefined) track.type = xmlText(route.routeType);
  if (route.waypoints.length > 0)
    track.trkseg = { trkpt: route.waypoints.map((p) => ({ '@_lat': p.lat, '@_lon': p.lon })) };

  const gpx: Record<string, unknown> = {
    '@_version': '1.1',
    '@_creator': GPX_CREATOR,
    '@_xmlns': GPX_NAMESPACE,
    metadata,
  };
  if (route.pointsOfInterest.length > 0) {
    gpx.wpt = route.pointsOfInterest.map((poi) => ({
      '@_lat': poi.lat,
      '@_lon': poi.lon,
      ...(poi.name === undefined ? {} : { name: xmlText(poi.name) }),
    }));
  }
  gpx.trk = track;
  return builder.build({ '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' }, gpx }) as string;
}

// XML 1.0 Char: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF].
const NOT_XML_CHAR =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function xmlText(text: string): string {
  return text.replace(NOT_XML_CHAR, '');
}
