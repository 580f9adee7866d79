// Fault: an asset file is always served at its original size: w, h and mode are ignored (breaks
// ASSET-005).

import type { FaultModifier } from '../faultProxy.ts';
import { urlOf, withQuery } from '../traffic.ts';

export function resizeIgnored(): FaultModifier {
  return {
    name: 'resizeIgnored',
    request(req) {
      if (req.method !== 'GET' || !/\/assets\/[^/]+\/[^/]+$/.test(urlOf(req).pathname)) return req;
      return withQuery(req, (q) => {
        for (const p of ['w', 'h', 'mode']) q.delete(p);
      });
    },
  };
}
