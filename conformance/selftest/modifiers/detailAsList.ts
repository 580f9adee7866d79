// Fault: a detail read answers a one-element array instead of the item (breaks DETAIL-001).

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import { detailId, isJson } from '../traffic.ts';

export function detailAsList(): FaultModifier {
  return {
    name: 'detailAsList',
    response(res, req) {
      if (!detailId(req) || res.status !== 200 || !isJson(res)) return res;
      const body = readJson(res.body);
      return Array.isArray(body) ? res : { ...res, body: jsonBody([body]) };
    },
  };
}
