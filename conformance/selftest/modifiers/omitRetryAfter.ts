// Fault: a 429 without Retry-After (breaks ERR-005, RATE-004).

import type { FaultModifier } from '../faultProxy.ts';

export function omitRetryAfter(): FaultModifier {
  return {
    name: 'omitRetryAfter',
    response(res) {
      if (res.status !== 429 || !('retry-after' in res.headers)) return res;
      const { 'retry-after': _dropped, ...headers } = res.headers;
      return { ...res, headers };
    },
  };
}
