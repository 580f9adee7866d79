// Fault: assets sortField=lastupdated, the alias of modified, is not recognised and sorts by
// upload date (breaks ASSET-011).

import type { FaultModifier } from '../faultProxy.ts';
import { urlOf, withQuery } from '../traffic.ts';

export function assetsLastupdatedSortAsDate(): FaultModifier {
  return {
    name: 'assetsLastupdatedSortAsDate',
    request(req) {
      if (req.method !== 'GET' || !/\/assets$/.test(urlOf(req).pathname)) return req;
      return withQuery(req, (q) => {
        if (q.get('sortField')?.toLowerCase() === 'lastupdated') q.set('sortField', 'date');
      });
    },
  };
}
