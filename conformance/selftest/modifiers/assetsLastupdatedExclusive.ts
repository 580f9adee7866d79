// Fault: the assets lastupdated filter is exclusive (>) instead of inclusive (>=) (breaks
// ASSET-008). The proxy moves a timestamp with an offset one millisecond later.

import type { FaultModifier } from '../faultProxy.ts';
import { urlOf, withQuery } from '../traffic.ts';

const WITH_OFFSET = /T.*(Z|[+-]\d{2}:?\d{2})$/;

export function assetsLastupdatedExclusive(): FaultModifier {
  return {
    name: 'assetsLastupdatedExclusive',
    request(req) {
      if (req.method !== 'GET' || !/\/assets$/.test(urlOf(req).pathname)) return req;
      return withQuery(req, (q) => {
        const value = q.get('lastupdated');
        if (value && WITH_OFFSET.test(value) && !Number.isNaN(Date.parse(value)))
          q.set('lastupdated', new Date(Date.parse(value) + 1).toISOString());
      });
    },
  };
}
