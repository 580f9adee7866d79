// Fault: fetchAndConvertOnce ignores size and pulls every entry (breaks FEED-004): the proxy
// drops `size` from the run request, so the target runs the whole feed.

import type { FaultModifier } from '../faultProxy.ts';
import { urlOf, withQuery } from '../traffic.ts';

export function feedSizeIgnored(): FaultModifier {
  return {
    name: 'feedSizeIgnored',
    request(req) {
      if (req.method !== 'POST' || !/\/feeds\/[^/]+\/fetchAndConvertOnce$/.test(urlOf(req).pathname)) return req;
      return withQuery(req, (q) => q.delete('size'));
    },
  };
}
