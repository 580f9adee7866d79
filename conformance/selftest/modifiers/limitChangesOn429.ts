// Fault: a 429 answers X-RateLimit-Limit: 0 while the endpoint's 200s answer the sustained limit
// (breaks RATE-006: the headers are sent statically). The 429 still carries both headers.

import type { FaultModifier } from '../faultProxy.ts';

export function limitChangesOn429(): FaultModifier {
  return {
    name: 'limitChangesOn429',
    response(res) {
      if (res.status !== 429 || res.headers['x-ratelimit-limit'] === undefined) return res;
      return { ...res, headers: { ...res.headers, 'x-ratelimit-limit': '0' } };
    },
  };
}
