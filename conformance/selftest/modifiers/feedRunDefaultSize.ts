// Fault: fetchAndConvertOnce without size is a short synchronous run of 2 entries, not the full
// asynchronous run (breaks FEED-007: without size a full asynchronous run happens).

import type { FaultModifier } from '../faultProxy.ts';
import { urlOf, withQuery } from '../traffic.ts';

export function feedRunDefaultSize(): FaultModifier {
  return {
    name: 'feedRunDefaultSize',
    request(req) {
      if (req.method !== 'POST' || !/\/fetchAndConvertOnce$/.test(urlOf(req).pathname)) return req;
      const q = urlOf(req).searchParams;
      if (q.has('size') || q.has('externalID')) return req;
      return withQuery(req, (params) => params.set('size', '2'));
    },
  };
}
