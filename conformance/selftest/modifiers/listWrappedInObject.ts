// Fault: list answers wrap the items in an object ({"items": […]}) instead of a bare JSON array
// (breaks LIST-001).

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import { isJson, listCollection } from '../traffic.ts';

export function listWrappedInObject(): FaultModifier {
  return {
    name: 'listWrappedInObject',
    response(res, req) {
      if (!listCollection(req) || res.status !== 200 || !isJson(res)) return res;
      const body = readJson(res.body);
      return Array.isArray(body) ? { ...res, body: jsonBody({ items: body }) } : res;
    },
  };
}
