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
  routeType: 'cycling',
  waypoints: [
    { lon: '5.118000', lat: '52.099000' },
    { lon: '5.096500', lat: '52.112600' },
  ],
  pointsOfInterest: [
    { lon: '5.054600', lat: '52.129600', name: 'Kasteel & <tuin>' },
    { lon: '5', lat: '52' },
  ],
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
      { '@_lat': '52.129600', '@_lon': '5.054600', name: 'Kasteel & <tuin>' },
      { '@_lat': '52', '@_lon': '5' },
    ]);
    expect(gpx.trk).toEqual([
      {
        name: route.title,
        type: 'cycling',
        trkseg: [
          {
            trkpt: [
              { '@_lat': '52.099000', '@_lon': '5.118000' },
              { '@_lat': '52.112600', '@_lon': '5.096500' },
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

  it('when GPX elements are written, then they follow the schema order: metadata, wpt, trk', () => {
    const xml = routeToGpx(route, { resourceUrl: 'https://svc.example/x' });
    expect(xml.indexOf('<metadata>')).toBeLessThan(xml.indexOf('<wpt '));
    expect(xml.lastIndexOf('<wpt ')).toBeLessThan(xml.indexOf('<trk>'));
  });
});
