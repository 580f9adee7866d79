// Fault: the limiter in front of the lists is a token bucket of 30 instead of 40 (still 20 per
// second, still advertising burst=40): from rest a burst is refused after about 30 requests
// (breaks RATE-003: the burst is 40 requests above the sustained rate). Its 429s look like the
// service's own, so nothing else about throttling changes.

import type { FaultModifier } from '../faultProxy.ts';
import { endpointOf, jsonAnswer, listCollection } from '../traffic.ts';

export function burstTooSmall(capacity = 30, perSecond = 20): FaultModifier {
  let tokens = capacity;
  let refilledAt = Date.now();
  return {
    name: 'burstTooSmall',
    request(req) {
      if (!listCollection(req) && !(req.method === 'GET' && endpointOf(req) === '/dictionary')) return req;
      const now = Date.now();
      tokens = Math.min(capacity, tokens + ((now - refilledAt) * perSecond) / 1000);
      refilledAt = now;
      if (tokens >= 1) {
        tokens -= 1;
        return req;
      }
      const retryAfter = Math.max(1, Math.ceil((1 - tokens) / perSecond));
      return {
        ...req,
        answer: jsonAnswer(
          429,
          {
            status: 429,
            error: 'Too Many Requests',
            message: `rate limit exceeded: 20 requests per second with a burst of 40; retry after ${retryAfter} s`,
          },
          {
            'retry-after': String(retryAfter),
            'x-ratelimit-limit': '20',
            'x-ratelimit-policy': '20;w=1;burst=40',
          },
        ),
      };
    },
  };
}
