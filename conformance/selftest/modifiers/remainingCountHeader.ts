// Fault: limited endpoints also send a remaining count, spelled X-Rate-Limit-Remaining (breaks
// RATE-006: there is no remaining-count header).

import type { FaultModifier } from '../faultProxy.ts';

export function remainingCountHeader(): FaultModifier {
  return {
    name: 'remainingCountHeader',
    response(res) {
      if (res.headers['x-ratelimit-limit'] === undefined) return res;
      return { ...res, headers: { ...res.headers, 'x-rate-limit-remaining': res.status === 429 ? '0' : '19' } };
    },
  };
}
