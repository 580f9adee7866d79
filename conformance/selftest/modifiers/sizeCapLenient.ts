// Fault: after 1 November 2026 a size above 2000 still answers 200 with 2000 items, the earlier
// rule (breaks LIMIT-003: from that date it is a 400).

import type { FaultModifier } from '../faultProxy.ts';
import { listCollection, withQuery } from '../traffic.ts';

export function sizeCapLenient(): FaultModifier {
  return {
    name: 'sizeCapLenient',
    request(req) {
      if (!listCollection(req)) return req;
      return withQuery(req, (q) => {
        const size = Number(q.get('size'));
        if (Number.isFinite(size) && size > 2000) q.set('size', '2000');
      });
    },
  };
}
