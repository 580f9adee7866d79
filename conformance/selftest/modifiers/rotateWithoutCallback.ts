// Fault: rotate-secret on a token without callBackUrl answers a fresh secret instead of refusing
// (breaks TOKEN-011: rotate-secret requires the token to have a callBackUrl).

import { randomBytes } from 'node:crypto';
import type { FaultModifier } from '../faultProxy.ts';
import { jsonAnswer, urlOf } from '../traffic.ts';

export function rotateWithoutCallback(): FaultModifier {
  return {
    name: 'rotateWithoutCallback',
    response(res, req) {
      const tokenId = /\/tokens\/([^/]+)\/rotate-secret$/.exec(urlOf(req).pathname)?.[1];
      if (req.method !== 'POST' || !tokenId || res.status < 400 || res.status >= 500 || res.status === 403) return res;
      return jsonAnswer(200, { id: tokenId, signingSecret: randomBytes(32).toString('base64url') });
    },
  };
}
