// Fault: a token limited to live data is served as if it could see every status, so archived and
// deleted items leak to it (breaks AUTH-005, SCOPE-001; in the sync, SYNC-005).

import type { FaultModifier } from '../faultProxy.ts';
import { bearerOf, withBearer } from '../traffic.ts';

export function liveTokenSeesAll(tokens: { live: string; full: string }): FaultModifier {
  return {
    name: 'liveTokenSeesAll',
    request(req) {
      return req.method === 'GET' && bearerOf(req) === tokens.live ? withBearer(req, tokens.full) : req;
    },
  };
}
