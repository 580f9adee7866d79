// Fault: a request without a token, or with one the service does not know, is served as if it
// came with a valid consumer token (breaks AUTH-002: such requests are refused with 401).

import type { FaultModifier } from '../faultProxy.ts';
import { bearerOf, withBearer } from '../traffic.ts';

export function acceptUnknownTokens(tokens: { consumer: string; known: readonly string[] }): FaultModifier {
  return {
    name: 'acceptUnknownTokens',
    request(req) {
      const token = bearerOf(req);
      if (token !== undefined && (token === tokens.consumer || tokens.known.includes(token))) return req;
      if (/\/actuator\/health$/.test(new URL(req.url, 'http://x').pathname)) return req;
      return withBearer(req, tokens.consumer);
    },
  };
}
