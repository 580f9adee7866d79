// Fault: a PUT on a token without callBackUrl removes its webhook, as if "" had been sent
// (breaks TOKEN-004: a PUT without callBackUrl leaves the webhook unchanged).

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import { urlOf } from '../traffic.ts';

export function putWithoutCallbackRemovesWebhook(): FaultModifier {
  return {
    name: 'putWithoutCallbackRemovesWebhook',
    request(req) {
      if (req.method !== 'PUT' || !/\/tokens\/[^/]+$/.test(urlOf(req).pathname)) return req;
      const body = readJson(req.body) as Record<string, unknown> | undefined;
      if (!body || 'callBackUrl' in body) return req;
      return { ...req, body: jsonBody({ ...body, callBackUrl: '' }) };
    },
  };
}
