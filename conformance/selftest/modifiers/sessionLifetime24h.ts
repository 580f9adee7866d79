// Fault: session tokens are JWTs valid for 24 hours (breaks SESSION-003 and AUTH-003: a session
// token is a JWT valid for 1 hour). The proxy hands out the service's JWT with exp moved to 24 h
// after iat (expires_in unchanged), and swaps it back for the real one on every request, so
// the long-lived token works as the broken service's would.

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import { bearerOf, urlOf, withBearer } from '../traffic.ts';

const DAY = 24 * 3600;

function lengthened(jwt: string): string | undefined {
  const [header, payload, signature] = jwt.split('.');
  if (!header || !payload || signature === undefined) return undefined;
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { iat?: number; exp?: number };
  const iat = claims.iat ?? Math.floor(Date.now() / 1000);
  return `${header}.${Buffer.from(JSON.stringify({ ...claims, exp: iat + DAY })).toString('base64url')}.${signature}`;
}

export function sessionLifetime24h(): FaultModifier {
  const real = new Map<string, string>();
  return {
    name: 'sessionLifetime24h',
    request(req) {
      const bearer = bearerOf(req);
      const original = bearer && real.get(bearer);
      return original ? withBearer(req, original) : req;
    },
    response(res, req) {
      if (req.method !== 'POST' || res.status !== 200 || !/\/auth\/(signin|refresh)$/.test(urlOf(req).pathname))
        return res;
      const body = readJson(res.body) as { access_token?: unknown } | undefined;
      if (typeof body?.access_token !== 'string') return res;
      const forged = lengthened(body.access_token);
      if (!forged) return res;
      real.set(forged, body.access_token);
      return { ...res, body: jsonBody({ ...body, access_token: forged }) };
    },
  };
}
