// Fault: GET /assets sits behind a generous rate limiter, a burst of 100 above 20 a second, so a
// few dozen reads pass and only a larger wave is throttled (breaks RATE-005: /assets/* is not
// rate limited).

import type { FaultModifier } from '../faultProxy.ts';
import { jsonAnswer, urlOf } from '../traffic.ts';

const BURST = 100;
const PER_SECOND = 20;

export function assetsLimitedLoosely(): FaultModifier {
  let tokens = BURST;
  let last = Date.now();
  return {
    name: 'assetsLimitedLoosely',
    request(req) {
      if (req.method !== 'GET' || !/\/assets(\/|$)/.test(urlOf(req).pathname)) return req;
      const now = Date.now();
      tokens = Math.min(BURST, tokens + ((now - last) / 1000) * PER_SECOND);
      last = now;
      if (tokens >= 1) {
        tokens -= 1;
        return req;
      }
      return {
        ...req,
        answer: jsonAnswer(
          429,
          { status: 429, error: 'Too Many Requests', message: 'rate limit exceeded; retry after 1 s' },
          {
            'retry-after': '1',
            'x-ratelimit-limit': String(PER_SECOND),
            'x-ratelimit-policy': `${PER_SECOND};w=1;burst=${BURST}`,
          },
        ),
      };
    },
  };
}
