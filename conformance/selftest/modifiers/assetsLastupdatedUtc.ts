// Fault: the assets lastupdated filter reads a date-time without offset as UTC instead of
// Europe/Amsterdam (breaks ASSET-009).

import type { FaultModifier } from '../faultProxy.ts';
import { urlOf, withQuery } from '../traffic.ts';

const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;

export function assetsLastupdatedUtc(): FaultModifier {
  return {
    name: 'assetsLastupdatedUtc',
    request(req) {
      if (req.method !== 'GET' || !/\/assets$/.test(urlOf(req).pathname)) return req;
      return withQuery(req, (q) => {
        const value = q.get('lastupdated');
        if (value !== null && LOCAL_DATE_TIME.test(value)) q.set('lastupdated', `${value}Z`);
      });
    },
  };
}
