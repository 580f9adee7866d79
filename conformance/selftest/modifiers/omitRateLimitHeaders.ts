// Fault: limited endpoints send no X-RateLimit-Limit / X-RateLimit-Policy (breaks RATE-006).

import type { FaultModifier } from '../faultProxy.ts';

export function omitRateLimitHeaders(): FaultModifier {
  return {
    name: 'omitRateLimitHeaders',
    response(res) {
      const names = Object.keys(res.headers).filter((h) => h.startsWith('x-ratelimit-'));
      if (names.length === 0) return res;
      const headers = { ...res.headers };
      for (const h of names) delete headers[h];
      return { ...res, headers };
    },
  };
}
