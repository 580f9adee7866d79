// Fault: the API accepts account tokens only: a session token from POST /auth/signin is refused
// outside /auth (breaks AUTH-003: two kinds of token exist, the account token and the session
// token).

import type { FaultModifier } from '../faultProxy.ts';
import { readJson } from '../faultProxy.ts';
import { bearerOf, urlOf, withBearer } from '../traffic.ts';

export function sessionTokenRefused(): FaultModifier {
  const sessions = new Set<string>();
  return {
    name: 'sessionTokenRefused',
    request(req) {
      const bearer = bearerOf(req);
      if (!bearer || !sessions.has(bearer) || /\/auth\//.test(urlOf(req).pathname)) return req;
      return withBearer(req, `unknown-${bearer}`);
    },
    response(res, req) {
      if (req.method === 'POST' && res.status === 200 && /\/auth\/(signin|refresh)$/.test(urlOf(req).pathname)) {
        const token = (readJson(res.body) as { access_token?: unknown } | undefined)?.access_token;
        if (typeof token === 'string') sessions.add(token);
      }
      return res;
    },
  };
}
