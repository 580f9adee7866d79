// Fault: token create, update, delete and rotate-secret are open to any token, not only an
// admin's (breaks TOKEN-013: they require ROLE_ADMIN or ROLE_SUPER_ADMIN).

import type { FaultModifier } from '../faultProxy.ts';
import { bearerOf, urlOf, withBearer } from '../traffic.ts';

export function consumerManagesTokens(tokens: { consumer: string; admin: string }): FaultModifier {
  return {
    name: 'consumerManagesTokens',
    request(req) {
      if (req.method === 'GET' || !/\/tokens(\/|$)/.test(urlOf(req).pathname) || bearerOf(req) !== tokens.consumer)
        return req;
      return withBearer(req, tokens.admin);
    },
  };
}
