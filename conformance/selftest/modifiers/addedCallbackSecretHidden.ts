// Fault: adding a callBackUrl to a token without one creates a secret but does not return it
// (breaks TOKEN-008: the new signingSecret is returned once, in that response).

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import { urlOf } from '../traffic.ts';

export function addedCallbackSecretHidden(): FaultModifier {
  return {
    name: 'addedCallbackSecretHidden',
    response(res, req) {
      if (req.method !== 'PUT' || res.status !== 200 || !/\/tokens\/[^/]+$/.test(urlOf(req).pathname)) return res;
      const body = readJson(res.body) as Record<string, unknown> | undefined;
      if (!body || body.signingSecret === undefined) return res;
      const { signingSecret: _hidden, ...rest } = body;
      return { ...res, body: jsonBody(rest) };
    },
  };
}
