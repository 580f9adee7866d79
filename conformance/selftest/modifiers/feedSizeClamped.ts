// Fault: fetchAndConvertOnce clamps a size outside 1 to 1000 into that range and runs, instead of
// refusing it (breaks LIMIT-004: the dev-loop size is 1 to 1000).

import type { FaultModifier } from '../faultProxy.ts';
import { urlOf, withQuery } from '../traffic.ts';

export function feedSizeClamped(): FaultModifier {
  return {
    name: 'feedSizeClamped',
    request(req) {
      if (req.method !== 'POST' || !/\/fetchAndConvertOnce$/.test(urlOf(req).pathname)) return req;
      const size = urlOf(req).searchParams.get('size');
      if (size === null) return req;
      const clamped = Math.min(1000, Math.max(1, Number(size) || 1));
      return String(clamped) === size ? req : withQuery(req, (q) => q.set('size', String(clamped)));
    },
  };
}
