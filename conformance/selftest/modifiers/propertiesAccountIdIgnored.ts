// Fault: GET /dictionary/propertiesOntology ignores accountId and always answers the caller's
// own account's property ontology (breaks DICT-003).

import type { FaultModifier } from '../faultProxy.ts';
import { ontologyKind, withQuery } from '../traffic.ts';

export function propertiesAccountIdIgnored(): FaultModifier {
  return {
    name: 'propertiesAccountIdIgnored',
    request(req) {
      if (req.method !== 'GET' || ontologyKind(req) !== 'properties') return req;
      return withQuery(req, (q) => q.delete('accountId'));
    },
  };
}
