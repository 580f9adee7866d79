// Fault: any token may replace an account's property ontology, not only an admin's (breaks
// AUTH-007: writing the property ontology is admin only).

import type { FaultModifier } from '../faultProxy.ts';
import { bearerOf, urlOf, withBearer } from '../traffic.ts';

export function consumerWritesOntology(tokens: { consumer: string; admin: string }): FaultModifier {
  return {
    name: 'consumerWritesOntology',
    request(req) {
      if (
        req.method !== 'PUT' ||
        !/\/dictionary\/propertiesOntology$/.test(urlOf(req).pathname) ||
        bearerOf(req) !== tokens.consumer
      )
        return req;
      return withBearer(req, tokens.admin);
    },
  };
}
