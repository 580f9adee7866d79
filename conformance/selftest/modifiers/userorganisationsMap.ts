// Conforming variation: GET /dictionary/userorganisations answers an object keyed by
// userorganisation instead of an array ("Shape beyond these: not shown"; our DEC-DICT-002).

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import { urlOf } from '../traffic.ts';

export function userorganisationsMap(): FaultModifier {
  return {
    name: 'userorganisationsMap',
    response(res, req) {
      if (req.method !== 'GET' || !/\/dictionary\/userorganisations$/.test(urlOf(req).pathname) || res.status !== 200)
        return res;
      const body = readJson(res.body);
      if (!Array.isArray(body)) return res;
      const entries = body.map((entry: Record<string, unknown>) => {
        const { userorganisation, ...rest } = entry;
        return [String(userorganisation), rest];
      });
      return { ...res, body: jsonBody(Object.fromEntries(entries)) };
    },
  };
}
