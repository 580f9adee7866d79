// Fault: tokens created through the accounts endpoints never reach the service's token store:
// calling with one answers 401 (breaks AUTH-001: access uses bearer tokens that belong to an
// account and are managed through the accounts endpoints).

import type { FaultModifier } from '../faultProxy.ts';
import { readJson } from '../faultProxy.ts';
import { bearerOf, urlOf, withBearer } from '../traffic.ts';

export function newTokensRefused(): FaultModifier {
  const minted = new Set<string>();
  return {
    name: 'newTokensRefused',
    request(req) {
      const bearer = bearerOf(req);
      if (!bearer || !minted.has(bearer)) return req;
      // The service itself answers for an unknown token.
      return withBearer(req, `unknown-${bearer}`);
    },
    response(res, req) {
      if (req.method === 'POST' && res.status < 300 && /\/tokens$/.test(urlOf(req).pathname)) {
        const value = (readJson(res.body) as { token?: unknown } | undefined)?.token;
        if (typeof value === 'string') minted.add(value);
      }
      return res;
    },
  };
}
