// Fault: PUT /dictionary/propertiesOntology accepts any token of the account, not only an admin
// token (breaks DICT-004: admin only). The proxy sends a consumer token's PUT with the admin token.

import type { FaultModifier } from '../faultProxy.ts';
import { bearerOf, ontologyKind, withBearer } from '../traffic.ts';

export function ontologyPutOpenToConsumers(tokens: { consumer: string; admin: string }): FaultModifier {
  return {
    name: 'ontologyPutOpenToConsumers',
    request(req) {
      if (req.method !== 'PUT' || ontologyKind(req) !== 'properties' || bearerOf(req) !== tokens.consumer) return req;
      return withBearer(req, tokens.admin);
    },
  };
}
