import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { GPX_NAMESPACE, routeToGpx } from './gpx.ts';
import type { RouteData } from './routeData.ts';

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  isArray: (name) => ['wpt', 'trkpt', 'trk', 'trkseg'].includes(name),
});

const route: RouteData = {
  id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  trcid: 'trc-r',
  lastupdated: new Date('2026-11-19T07:31:58.090Z'),
  title: 'Tom & Jerry\'s <route> "quoted" 🚲',
  description: 'A < B & C > D',
  info: { routeType: 'cycling' },
  path: [
    { lat: 52.099, lng: 5.118 },
    { lat: 52.1126, lng: 5.0965, altitude: -1.5 },
  ],
  pois: [
    { point: { lat: 52.1296, lng: 5.0546 }, title: 'Kasteel & <tuin>', description: 'Oud', category: 'castle' },
    { point: { lat: 52, lng: 5 }, label: 'B' },
    { point: { lat: 52.5, lng: 5.5, altitude: 3 } },
  ],
  waterPoints: [],
};

describe('routeToGpx', () => {
  it('when a route is written as GPX, then it is well-formed GPX 1.1 with metadata, waypoints and one track [DEC-ITEM-017] [ROUTE-002]', () => {
    const xml = routeToGpx(route, { resourceUrl: 'https://svc.example/api/routes/x?a=1&b=2' });
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    const { gpx } = parser.parse(xml);
    expect(gpx).toMatchObject({ '@_version': '1.1', '@_creator': 'Content Service', '@_xmlns': GPX_NAMESPACE });
    expect(gpx.metadata).toEqual({
      name: route.title,
      desc: 'A < B & C > D',
      time: '2026-11-19T07:31:58.090Z',
      link: { '@_href': 'https://svc.example/api/routes/x?a=1&b=2', text: 'trc-r' },
    });
    expect(gpx.wpt).toEqual([
      { '@_lat': '52.1296', '@_lon': '5.0546', name: 'Kasteel & <tuin>', desc: 'Oud', type: 'castle' },
      { '@_lat': '52', '@_lon': '5', name: 'B' },
      { '@_lat': '52.5', '@_lon': '5.5', ele: '3' },
    ]);
    expect(gpx.trk).toEqual([
      {
        name: route.title,
        type: 'cycling',
        trkseg: [
          {
            trkpt: [
              { '@_lat': '52.099', '@_lon': '5.118' },
              { '@_lat': '52.1126', '@_lon': '5.0965', ele: '-1.5' },
            ],
          },
        ],
      },
    ]);
  });

  it('when text holds XML specials, then they are escaped, and characters XML cannot hold are dropped', () => {
    const xml = routeToGpx(
      { ...route, title: 'a & b < c "d" \u0001e\uD800' },
      { resourceUrl: 'https://svc.example/x' },
    );
    expect(xml).toContain('<name>a &amp; b &lt; c &quot;d&quot; e</name>');
    expect(xml).toContain('href="https://svc.example/x"');
    expect(XMLValidator.validate(xml)).toBe(true);
  });

  it('when GPX elements are written, then they follow the schema order: metadata, wpt, trk; ele, name, desc, type', () => {
    const xml = routeToGpx(route, { resourceUrl: 'https://svc.example/x' });
    expect(xml.indexOf('<metadata>')).toBeLessThan(xml.indexOf('<wpt '));
    expect(xml.lastIndexOf('<wpt ')).toBeLessThan(xml.indexOf('<trk>'));
    const wpt = xml.slice(xml.indexOf('<wpt '), xml.indexOf('</wpt>'));
    expect(wpt.indexOf('<name>')).toBeLessThan(wpt.indexOf('<desc>'));
    expect(wpt.indexOf('<desc>')).toBeLessThan(wpt.indexOf('<type>'));
    const third = xml.slice(xml.lastIndexOf('<wpt '));
    expect(third).toMatch(/^<wpt lat="52.5" lon="5.5">\s*<ele>3<\/ele>/);
  });

  it('when a route has water points, then they are a second track of type waterPoints [DEC-ITEM-026]', () => {
    const xml = routeToGpx(
      { ...route, waterPoints: [{ lat: 52.3, lng: 5 }] },
      { resourceUrl: 'https://svc.example/x' },
    );
    const { gpx } = parser.parse(xml);
    expect(gpx.trk).toHaveLength(2);
    expect(gpx.trk[1]).toEqual({ type: 'waterPoints', trkseg: [{ trkpt: [{ '@_lat': '52.3', '@_lon': '5' }] }] });
    expect(parser.parse(routeToGpx(route, { resourceUrl: 'https://svc.example/x' })).gpx.trk).toHaveLength(1);
  });
});
