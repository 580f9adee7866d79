// Fault: GET /assets ignores a lastupdated it cannot parse and answers the whole list (breaks
// ERR-002: an unparseable lastupdated on GET /assets is a 400).

import type { FaultModifier } from '../faultProxy.ts';
import { urlOf, withQuery } from '../traffic.ts';

export function assetsBadLastupdatedIgnored(): FaultModifier {
  return {
    name: 'assetsBadLastupdatedIgnored',
    request(req) {
      const value = urlOf(req).searchParams.get('lastupdated');
      if (req.method !== 'GET' || !/\/assets$/.test(urlOf(req).pathname) || value === null) return req;
      if (!Number.isNaN(Date.parse(value))) return req;
      return withQuery(req, (q) => q.delete('lastupdated'));
    },
  };
}
