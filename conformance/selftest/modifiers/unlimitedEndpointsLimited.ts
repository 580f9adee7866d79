// Fault: detail reads, or the health check, are rate limited like lists: above 10 requests a
// second they answer 429 (breaks DETAIL-002, or HEALTH-001: neither is limited).

import type { FaultModifier } from '../faultProxy.ts';
import { detailId, jsonAnswer, urlOf } from '../traffic.ts';

export function unlimitedEndpointsLimited(which: 'detail' | 'health', perSecond = 10): FaultModifier {
  const recent: number[] = [];
  return {
    name: `unlimitedEndpointsLimited(${which})`,
    request(req) {
      if (which === 'detail' ? !detailId(req) : !/\/actuator\/health$/.test(urlOf(req).pathname)) return req;
      const now = Date.now();
      while (recent.length > 0 && recent[0]! < now - 1000) recent.shift();
      recent.push(now);
      if (recent.length <= perSecond) return req;
      return {
        ...req,
        answer: jsonAnswer(
          429,
          {
            status: 429,
            error: 'Too Many Requests',
            message: `rate limit exceeded: ${perSecond} requests per second; retry after 1 s`,
          },
          {
            'retry-after': '1',
            'x-ratelimit-limit': String(perSecond),
            'x-ratelimit-policy': `${perSecond};w=1;burst=${perSecond}`,
          },
        ),
      };
    },
  };
}
