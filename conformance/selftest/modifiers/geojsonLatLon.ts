// Fault: the GeoJSON download puts positions as [latitude, longitude] instead of GeoJSON's
// [longitude, latitude] (breaks ROUTE-001: the route in GeoJSON).

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import { urlOf } from '../traffic.ts';

function swap(value: unknown): unknown {
  if (Array.isArray(value) && value.length >= 2 && typeof value[0] === 'number' && typeof value[1] === 'number')
    return [value[1], value[0], ...value.slice(2)];
  return Array.isArray(value) ? value.map(swap) : value;
}

function swapGeometries(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(swapGeometries);
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = k === 'coordinates' ? swap(v) : swapGeometries(v);
  return out;
}

export function geojsonLatLon(): FaultModifier {
  return {
    name: 'geojsonLatLon',
    response(res, req) {
      if (req.method !== 'GET' || !/\/routes\/[^/]+\/geojson$/.test(urlOf(req).pathname) || res.status !== 200)
        return res;
      const doc = readJson(res.body);
      return doc === undefined ? res : { ...res, body: jsonBody(swapGeometries(doc)) };
    },
  };
}
