// Fault: a missing or unknown token is refused with 403 instead of 401 (breaks DEC-ERR-002:
// 401 for authentication, 403 for a known token without the right).

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';

export function unauthorizedAs403(): FaultModifier {
  return {
    name: 'unauthorizedAs403',
    response(res) {
      if (res.status !== 401) return res;
      const body = readJson(res.body) as Record<string, unknown> | undefined;
      const headers = { ...res.headers };
      delete headers['www-authenticate'];
      return {
        ...res,
        status: 403,
        headers,
        body: body ? jsonBody({ ...body, status: 403, error: 'Forbidden' }) : res.body,
      };
    },
  };
}
