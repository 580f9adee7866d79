// Fault: with both externalID and size, fetchAndConvertOnce applies size and forgets externalID:
// it imports the first entries, not the one asked for (breaks FEED-006: when externalID is given,
// size is ignored).

import type { FaultModifier } from '../faultProxy.ts';
import { urlOf, withQuery } from '../traffic.ts';

export function feedSizeBeatsExternalId(): FaultModifier {
  return {
    name: 'feedSizeBeatsExternalId',
    request(req) {
      if (req.method !== 'POST' || !/\/fetchAndConvertOnce$/.test(urlOf(req).pathname)) return req;
      const q = urlOf(req).searchParams;
      if (!q.has('externalID') || !q.has('size')) return req;
      return withQuery(req, (params) => params.delete('externalID'));
    },
  };
}
