// Fault: throttling answers 503 Service Unavailable instead of 429 (breaks ERR-005).

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';

export function throttleAs503(): FaultModifier {
  return {
    name: 'throttleAs503',
    response(res) {
      if (res.status !== 429) return res;
      const body = readJson(res.body) as Record<string, unknown> | undefined;
      return {
        ...res,
        status: 503,
        body: body ? jsonBody({ ...body, status: 503, error: 'Service Unavailable' }) : res.body,
      };
    },
  };
}
