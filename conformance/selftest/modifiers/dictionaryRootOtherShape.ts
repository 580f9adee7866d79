// Conforming variation: GET /dictionary answers another JSON shape, a map of endpoint names to
// URLs ("GET /dictionary … Response body: not shown"; our DEC-DICT-001).

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import { urlOf } from '../traffic.ts';

export function dictionaryRootOtherShape(): FaultModifier {
  return {
    name: 'dictionaryRootOtherShape',
    response(res, req) {
      if (req.method !== 'GET' || !/\/dictionary$/.test(urlOf(req).pathname) || res.status !== 200) return res;
      const body = readJson(res.body) as { resources?: { name: string; href: string }[] } | undefined;
      if (!Array.isArray(body?.resources)) return res;
      return { ...res, body: jsonBody({ links: Object.fromEntries(body.resources.map((r) => [r.name, r.href])) }) };
    },
  };
}
