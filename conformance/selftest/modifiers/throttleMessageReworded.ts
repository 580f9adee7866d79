// Fault: the 429 body words its message differently (breaks DEC-RATE-003: "rate limit exceeded:
// 20 requests per second with a burst of 40; retry after <N> s").

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';

export function throttleMessageReworded(): FaultModifier {
  return {
    name: 'throttleMessageReworded',
    response(res) {
      if (res.status !== 429) return res;
      const body = readJson(res.body) as Record<string, unknown> | undefined;
      return body ? { ...res, body: jsonBody({ ...body, message: 'Too many requests, slow down' }) } : res;
    },
  };
}
