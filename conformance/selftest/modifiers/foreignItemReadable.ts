// Fault: a detail read by id skips the token's organisation filter (BOLA): a token restricted to
// one organisation reads another organisation's item (breaks AUTH-004: an account token sees
// only items matching its organisation filter). The proxy asks again with the full token when
// the service refused a detail read of any token other than the run's own.

import type { FaultModifier } from '../faultProxy.ts';
import { bearerOf, detailId, withBearer } from '../traffic.ts';

export function foreignItemReadable(tokens: { consumer: string; full: string; admin: string }): FaultModifier {
  const own = new Set([tokens.consumer, tokens.full, tokens.admin]);
  return {
    name: 'foreignItemReadable',
    async response(res, req, tools) {
      const bearer = bearerOf(req);
      if (res.status !== 404 || !detailId(req) || !bearer || own.has(bearer)) return res;
      const again = await tools.upstream(withBearer(req, tokens.full));
      return again.status === 200 ? again : res;
    },
  };
}
