// Fault: fetchAndConvertOnce ignores feedInfoId and runs every sub-feed (breaks FEED-005:
// feedInfoId scopes the fetch to one sub-feed). The run keeps the short form the check asked for
// (a size of 1000 when none was given), so only its scope is wrong.

import type { FaultModifier } from '../faultProxy.ts';
import { urlOf, withQuery } from '../traffic.ts';

export function feedInfoIdIgnored(): FaultModifier {
  return {
    name: 'feedInfoIdIgnored',
    request(req) {
      if (req.method !== 'POST' || !/\/fetchAndConvertOnce$/.test(urlOf(req).pathname)) return req;
      return withQuery(req, (q) => {
        if (!q.has('feedInfoId')) return;
        q.delete('feedInfoId');
        if (!q.has('size')) q.set('size', '1000');
      });
    },
  };
}
