// Fault: the service ignores one list filter (the query parameter is dropped before it is read):
// `wfstatus` breaks FILTER-002, `published` FILTER-003, `trcid` FILTER-004.

import type { FaultModifier } from '../faultProxy.ts';
import { listCollection, withQuery } from '../traffic.ts';

export function ignoreFilter(parameter: 'wfstatus' | 'published' | 'trcid'): FaultModifier {
  return {
    name: `ignoreFilter(${parameter})`,
    request(req) {
      if (!listCollection(req)) return req;
      return withQuery(req, (q) => q.delete(parameter));
    },
  };
}
