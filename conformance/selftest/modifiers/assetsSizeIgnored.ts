// Fault: GET /assets ignores size and always answers pages of 20 (breaks ASSET-004: the list
// accepts size).

import type { FaultModifier } from '../faultProxy.ts';
import { urlOf, withQuery } from '../traffic.ts';

export function assetsSizeIgnored(): FaultModifier {
  return {
    name: 'assetsSizeIgnored',
    request(req) {
      if (req.method !== 'GET' || !/\/assets$/.test(urlOf(req).pathname)) return req;
      return withQuery(req, (q) => q.delete('size'));
    },
  };
}
