// Fault: a PUT with callBackUrl "" is taken as "no change": the webhook and its secret stay
// (breaks TOKEN-005: callBackUrl "" removes the webhook and its secret).

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import { urlOf } from '../traffic.ts';

export function emptyCallbackIgnored(): FaultModifier {
  return {
    name: 'emptyCallbackIgnored',
    request(req) {
      if (req.method !== 'PUT' || !/\/tokens\/[^/]+$/.test(urlOf(req).pathname)) return req;
      const body = readJson(req.body) as Record<string, unknown> | undefined;
      if (!body || body.callBackUrl !== '') return req;
      const { callBackUrl: _removed, ...rest } = body;
      return { ...req, body: jsonBody(rest) };
    },
  };
}
