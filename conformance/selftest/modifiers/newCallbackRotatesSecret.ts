// Fault: moving a webhook to another callBackUrl silently replaces its signing secret (the
// service rotates it and shows nothing), so the receiver's secret stops verifying (breaks
// TOKEN-007: changing the callBackUrl keeps the existing signingSecret).

import type { FaultModifier } from '../faultProxy.ts';
import { readJson } from '../faultProxy.ts';
import type { SecretBook } from '../traffic.ts';
import { urlOf } from '../traffic.ts';

export function newCallbackRotatesSecret(secrets: SecretBook): FaultModifier {
  return {
    name: 'newCallbackRotatesSecret',
    async response(res, req, tools) {
      const path = urlOf(req).pathname;
      const tokenId = /\/tokens\/([^/]+)$/.exec(path)?.[1];
      if (req.method !== 'PUT' || res.status !== 200 || !tokenId || !secrets.ofToken(tokenId)) return res;
      const body = readJson(req.body) as { callBackUrl?: unknown } | undefined;
      if (typeof body?.callBackUrl !== 'string' || body.callBackUrl === '') return res;
      const rotated = await tools.upstream({
        ...req,
        method: 'POST',
        url: `${path}/rotate-secret`,
        body: Buffer.alloc(0),
      });
      // The same answer as a new object, so the proxy counts the rotation it did.
      return rotated.status === 200 ? { ...res } : res;
    },
  };
}
