// Fault: GET /dictionary/userorganisations is not sorted by userorganisation (breaks
// DEC-DICT-012).

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import { urlOf } from '../traffic.ts';

export function userorganisationsUnsorted(): FaultModifier {
  return {
    name: 'userorganisationsUnsorted',
    response(res, req) {
      if (req.method !== 'GET' || !/\/dictionary\/userorganisations$/.test(urlOf(req).pathname) || res.status !== 200)
        return res;
      const body = readJson(res.body);
      return Array.isArray(body) && body.length > 1 ? { ...res, body: jsonBody([...body].reverse()) } : res;
    },
  };
}
