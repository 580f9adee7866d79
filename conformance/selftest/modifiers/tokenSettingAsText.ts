// Fault: token answers carry useOptimizedImages as the text "true" or "false" (breaks TOKEN-001:
// an account token has useOptimizedImages, a boolean).

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import { isJson, urlOf } from '../traffic.ts';

export function tokenSettingAsText(): FaultModifier {
  return {
    name: 'tokenSettingAsText',
    response(res, req) {
      if (res.status >= 300 || !isJson(res) || !/\/tokens(\/[^/]+)?$/.test(urlOf(req).pathname)) return res;
      const body = readJson(res.body) as Record<string, unknown> | undefined;
      if (!body || typeof body.useOptimizedImages !== 'boolean') return res;
      return { ...res, body: jsonBody({ ...body, useOptimizedImages: String(body.useOptimizedImages) }) };
    },
  };
}
