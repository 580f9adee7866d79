// Fault: a list page that is full (as many items as `size`) loses its last item, so it looks
// like the last, short page and a client stops paging early (breaks PAGE-001).

import type { FaultModifier } from '../faultProxy.ts';
import { listCollection, mapList, urlOf } from '../traffic.ts';

export function dropLastOfFullPage(): FaultModifier {
  return {
    name: 'dropLastOfFullPage',
    response(res, req) {
      const size = Number(urlOf(req).searchParams.get('size'));
      if (!listCollection(req) || !Number.isInteger(size) || size < 1) return res;
      return mapList(res, (items) => (items.length === size ? items.slice(0, -1) : undefined));
    },
  };
}
