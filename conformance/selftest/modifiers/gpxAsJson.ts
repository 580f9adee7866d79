// Fault: the GPX download answers the route's waypoints as JSON instead of a GPX document
// (breaks ROUTE-002: GET /routes/{id}/gpx downloads the route in GPX).

import type { FaultModifier } from '../faultProxy.ts';
import { jsonAnswer, urlOf } from '../traffic.ts';

export function gpxAsJson(): FaultModifier {
  return {
    name: 'gpxAsJson',
    async request(req, tools) {
      const m = /^(.*\/routes\/[^/]+)\/gpx$/.exec(urlOf(req).pathname);
      if (req.method !== 'GET' || !m) return req;
      const route = await tools.upstream({ ...req, url: m[1]! });
      if (route.status !== 200) return req;
      const item = JSON.parse(route.body.toString('utf8')) as { routeInfo?: { routeCoordinates?: unknown } };
      return { ...req, answer: jsonAnswer(200, { routeCoordinates: item.routeInfo?.routeCoordinates ?? [] }) };
    },
  };
}
