// Fault (webhooks): a delivery that failed transiently (5xx, timeout, connection error) is never
// sent again (breaks HOOK-018). The proxy lets the first attempt through and swallows every
// retry, answering the target 200 so it stops.

import type { FaultModifier } from '../faultProxy.ts';

export function noRetryAfter5xx(): FaultModifier {
  const seen = new Set<string>();
  return {
    name: 'noRetryAfter5xx',
    delivery(d) {
      const id = d.headers['x-service-delivery'];
      if (!id) return d;
      if (!seen.has(id)) {
        seen.add(id);
        return d;
      }
      return { ...d, swallow: 200 };
    },
  };
}
