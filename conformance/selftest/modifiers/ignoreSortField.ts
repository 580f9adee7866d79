// Fault: the service ignores sortField and always sorts by lastupdated (breaks SORT-001: any
// root-level field can be sorted on).

import type { FaultModifier } from '../faultProxy.ts';
import { listCollection, withQuery } from '../traffic.ts';

export function ignoreSortField(): FaultModifier {
  return {
    name: 'ignoreSortField',
    request(req) {
      if (!listCollection(req)) return req;
      return withQuery(req, (q) => {
        for (const key of [...q.keys()]) if (key.toLowerCase() === 'sortfield') q.delete(key);
      });
    },
  };
}
