// Fault: an edge in front of the service answers up to 20 more list requests a second than the
// service lets through, by serving the caller's last answer of the same URL instead of the 429:
// the sustained rate becomes 40 per second (breaks RATE-002: the sustained rate is 20 per second).
// A few spare answers absorb timing jitter; they add too little to a burst to break RATE-003.

import type { FaultModifier, ProxiedResponse } from '../faultProxy.ts';
import { endpointOf, listCollection } from '../traffic.ts';

export function sustainedTooHigh(extraPerSecond = 20, extraBurst = 5): FaultModifier {
  const last = new Map<string, ProxiedResponse>();
  let tokens = extraBurst;
  let refilledAt = Date.now();
  return {
    name: 'sustainedTooHigh',
    response(res, req) {
      if (!listCollection(req) && !(req.method === 'GET' && endpointOf(req) === '/dictionary')) return res;
      const key = `${req.headers.authorization ?? ''} ${req.url}`;
      if (res.status === 200) {
        last.set(key, res);
        return res;
      }
      const cached = last.get(key);
      if (res.status !== 429 || cached === undefined) return res;
      const now = Date.now();
      tokens = Math.min(extraBurst, tokens + ((now - refilledAt) * extraPerSecond) / 1000);
      refilledAt = now;
      if (tokens < 1) return res;
      tokens -= 1;
      return { ...cached };
    },
  };
}
