// Fault: the service ignores sortOrder and always sorts in its default order, DESC (breaks
// SORT-003: ASC is not honoured).

import type { FaultModifier } from '../faultProxy.ts';
import { listCollection, withQuery } from '../traffic.ts';

export function ignoreSortOrder(): FaultModifier {
  return {
    name: 'ignoreSortOrder',
    request(req) {
      if (!listCollection(req)) return req;
      return withQuery(req, (q) => {
        for (const key of [...q.keys()]) if (key.toLowerCase() === 'sortorder') q.delete(key);
      });
    },
  };
}
