// Fault: DELETE of a token answers 204 but the token stays (breaks TOKEN-009: DELETE
// …/tokens/{tokenId} deletes the token).

import type { FaultModifier } from '../faultProxy.ts';
import { urlOf } from '../traffic.ts';

export function tokenDeleteIgnored(): FaultModifier {
  return {
    name: 'tokenDeleteIgnored',
    request(req) {
      if (req.method !== 'DELETE' || !/\/tokens\/[^/]+$/.test(urlOf(req).pathname)) return req;
      return { ...req, answer: { status: 204, headers: {}, body: Buffer.alloc(0) } };
    },
  };
}
