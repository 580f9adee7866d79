// Fault: GET /dictionary/userorganisations lists the organisations without their accountId, so a
// client cannot find an item's owning account (breaks DICT-005).

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import { urlOf } from '../traffic.ts';

export function userorganisationsWithoutAccount(): FaultModifier {
  return {
    name: 'userorganisationsWithoutAccount',
    response(res, req) {
      if (req.method !== 'GET' || !/\/dictionary\/userorganisations$/.test(urlOf(req).pathname) || res.status !== 200)
        return res;
      const body = readJson(res.body);
      if (!Array.isArray(body)) return res;
      return {
        ...res,
        body: jsonBody(
          body.map((o: Record<string, unknown>) => {
            const { accountId: _dropped, ...rest } = o;
            return rest;
          }),
        ),
      };
    },
  };
}
