// Fault: once a token has a webhook, a PUT cannot move it: a new callBackUrl is silently
// dropped (breaks TOKEN-006: a PUT with a callBackUrl registers or changes the webhook). The
// secret book tells which tokens have (had) a webhook.

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import type { SecretBook } from '../traffic.ts';
import { urlOf } from '../traffic.ts';

export function callbackChangeIgnored(secrets: SecretBook): FaultModifier {
  return {
    name: 'callbackChangeIgnored',
    request(req) {
      const tokenId = /\/tokens\/([^/]+)$/.exec(urlOf(req).pathname)?.[1];
      if (req.method !== 'PUT' || !tokenId || !secrets.ofToken(tokenId)) return req;
      const body = readJson(req.body) as Record<string, unknown> | undefined;
      if (!body || typeof body.callBackUrl !== 'string' || body.callBackUrl === '') return req;
      const { callBackUrl: _dropped, ...rest } = body;
      return { ...req, body: jsonBody(rest) };
    },
  };
}
