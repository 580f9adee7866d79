// Fault: a PUT on a webhook token answers its signingSecret again although it created none
// (breaks TOKEN-002: the secret is shown only by the operation that created or rotated it).

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import type { SecretBook } from '../traffic.ts';
import { urlOf } from '../traffic.ts';

export function secretShownAgainOnPut(secrets: SecretBook): FaultModifier {
  return {
    name: 'secretShownAgainOnPut',
    response(res, req) {
      const tokenId = /\/tokens\/([^/]+)$/.exec(urlOf(req).pathname)?.[1];
      if (req.method !== 'PUT' || !tokenId || res.status !== 200) return res;
      const body = readJson(res.body) as Record<string, unknown> | undefined;
      const secret = secrets.ofToken(tokenId);
      if (!body || !secret || body.signingSecret !== undefined) return res;
      return { ...res, body: jsonBody({ ...body, signingSecret: secret }) };
    },
  };
}
