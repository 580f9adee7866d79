// Fault: the sign-in answer has no refresh_token (breaks SESSION-001: access_token, expires_in
// and refresh_token).

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import { urlOf } from '../traffic.ts';

export function signinWithoutRefreshToken(): FaultModifier {
  return {
    name: 'signinWithoutRefreshToken',
    response(res, req) {
      if (req.method !== 'POST' || !/\/auth\/signin$/.test(urlOf(req).pathname) || res.status !== 200) return res;
      const body = readJson(res.body) as Record<string, unknown> | undefined;
      if (!body || !('refresh_token' in body)) return res;
      const { refresh_token: _dropped, ...rest } = body;
      return { ...res, body: jsonBody(rest) };
    },
  };
}
