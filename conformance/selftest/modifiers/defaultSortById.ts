// Fault: a list without sortField comes in id order (the table's primary key) instead of by
// lastupdated (breaks SORT-002: sortField defaults to lastupdated).

import type { FaultModifier } from '../faultProxy.ts';
import { listCollection, withQuery } from '../traffic.ts';

export function defaultSortById(): FaultModifier {
  return {
    name: 'defaultSortById',
    request(req) {
      if (!listCollection(req)) return req;
      return withQuery(req, (q) => {
        if (![...q.keys()].some((k) => k.toLowerCase() === 'sortfield')) q.set('sortField', 'id');
      });
    },
  };
}
